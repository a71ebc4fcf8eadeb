/// Byte-wise searching and splitting on the UTF-8 view. URL delimiters are
/// ASCII, so these give the same answers as `Character`-based operations
/// without grapheme-cluster work: the rewriter's hot path uses only these.
extension Substring {
    /// Whether the bytes start with `prefix`'s bytes.
    @inline(__always)
    func hasBytePrefix(_ prefix: some StringProtocol) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// Whether the bytes end with `suffix`'s bytes.
    func hasByteSuffix(_ suffix: some StringProtocol) -> Bool {
        let count = suffix.utf8.count
        guard utf8.count >= count else { return false }
        return utf8[utf8.index(utf8.endIndex, offsetBy: -count)...].elementsEqual(suffix.utf8)
    }

    /// The first range whose bytes equal `needle`'s.
    func byteRange(of needle: some StringProtocol) -> Range<String.Index>? {
        let needleBytes = needle.utf8
        guard let first = needleBytes.first else { return startIndex..<startIndex }
        let count = needleBytes.count
        var index = utf8.startIndex
        var remaining = utf8.count
        while remaining >= count {
            if utf8[index] == first, utf8[index...].starts(with: needleBytes) {
                return index..<utf8.index(index, offsetBy: count)
            }
            index = utf8.index(after: index)
            remaining -= 1
        }
        return nil
    }

    /// Whether `needle`'s bytes occur.
    func containsBytes(_ needle: some StringProtocol) -> Bool { byteRange(of: needle) != nil }

    /// The index of the first `byte`.
    @inline(__always)
    func firstIndex(ofByte byte: UInt8) -> String.Index? { utf8.firstIndex(of: byte) }

    /// The index of the last `byte`.
    @inline(__always)
    func lastIndex(ofByte byte: UInt8) -> String.Index? { utf8.lastIndex(of: byte) }

    /// The pieces between `separator` bytes, empty ones included.
    func splitBytes(_ separator: UInt8) -> [Substring] {
        var pieces: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == separator {
                pieces.append(self[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        pieces.append(self[start..<utf8.endIndex])
        return pieces
    }

    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
