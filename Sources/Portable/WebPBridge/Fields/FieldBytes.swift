/// Byte-level helpers the field parsers share: HTTP's delimiters and the
/// names they compare are ASCII, so parsers walk UTF-8 bytes, compare
/// without allocating, and stay linear in the field's length.
enum FieldBytes {
    /// Whether `byte` is optional whitespace (a space or a horizontal tab).
    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `byte` with `A`–`Z` lower-cased.
    static func lowercased(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }

    /// `range` without leading and trailing optional whitespace.
    static func trimmed(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Whether the bytes in `range` are `expected` in any case.
    /// - Parameter expected: Lower-case ASCII.
    static func equalsIgnoringCase(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ expected: some Collection<UInt8>
    ) -> Bool {
        guard range.count == expected.count else { return false }
        return zip(bytes[range], expected).allSatisfy { lowercased($0) == $1 }
    }

    /// Whether `needle` occurs in `bytes`, in any case.
    /// - Parameter needle: Lower-case ASCII, not empty.
    static func contains(_ needle: StaticString, ignoringCaseIn bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        // Compares in place: a window this short makes the scan O(n · needle) with no allocation.
        for start in 0...(bytes.count - count) {
            var offset = 0
            while offset < count, lowercased(bytes[start + offset]) == needle.utf8Start[offset] { offset += 1 }
            if offset == count { return true }
        }
        return false
    }

    /// Whether `needle` (lower-case ASCII, not empty) occurs in `bytes`, in any case.
    static func contains(_ needle: String.UTF8View, ignoringCaseIn bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard count > 0, bytes.count >= count else { return false }
        for start in 0...(bytes.count - count) {
            var matched = true
            for (offset, byte) in needle.enumerated() where lowercased(bytes[start + offset]) != byte {
                matched = false
                break
            }
            if matched { return true }
        }
        return false
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, contiguous (a bridged
    /// string is copied once).
    func withFieldBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = self
        return text.withUTF8(body)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (optional whitespace).
    var trimmingSpacesAndTabs: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
