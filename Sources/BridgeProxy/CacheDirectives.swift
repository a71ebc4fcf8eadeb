import Foundation

/// Reads the one `Cache-Control` directive the bridge acts on.
enum CacheDirectives {
    /// Whether any `Cache-Control` value has `no-transform` (RFC 9111
    /// §5.2.1.6, §5.2.2.6): then the bridge neither rewrites nor transcodes.
    static func containsNoTransform(_ values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { directive in
                let name = directive.split(separator: "=", maxSplits: 1).first ?? ""
                return name.trimmingCharacters(in: .whitespaces).lowercased() == "no-transform"
            }
        }
    }

    /// ``containsNoTransform(_:)`` for one optional value.
    static func containsNoTransform(_ value: String?) -> Bool {
        value.map { containsNoTransform([$0]) } ?? false
    }
}
