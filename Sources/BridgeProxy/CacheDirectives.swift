import Foundation

/// Reads the one `Cache-Control` directive the bridge acts on.
enum CacheDirectives {
    /// Whether any `Cache-Control` value has `no-transform` (RFC 9111
    /// §5.2.1.6, §5.2.2.6): then the bridge neither rewrites nor transcodes.
    static func containsNoTransform(_ values: [String]) -> Bool {
        values.contains { value in
            // Nearly every value lacks it: one byte scan before any splitting.
            mentionsNoTransform(value)
                && value.split(separator: ",").contains { directive in
                    let name = directive.split(separator: "=", maxSplits: 1).first ?? ""
                    return name.trimmingCharacters(in: .whitespaces).lowercased() == "no-transform"
                }
        }
    }

    /// Whether `value` contains `no-transform` in any case, anywhere.
    private static func mentionsNoTransform(_ value: String) -> Bool {
        let needle: StaticString = "no-transform"
        var value = value
        return value.withUTF8 { bytes in
            guard bytes.count >= needle.utf8CodeUnitCount else { return false }
            for start in 0...(bytes.count - needle.utf8CodeUnitCount) {
                var offset = 0
                while offset < needle.utf8CodeUnitCount {
                    let byte = bytes[start + offset]
                    guard byte | (byte &- 65 < 26 ? 0x20 : 0) == needle.utf8Start[offset] else { break }
                    offset += 1
                }
                if offset == needle.utf8CodeUnitCount { return true }
            }
            return false
        }
    }

    /// ``containsNoTransform(_:)`` for one optional value.
    static func containsNoTransform(_ value: String?) -> Bool {
        value.map { containsNoTransform([$0]) } ?? false
    }
}
