extension [UInt8] {
    /// Appends `text`'s UTF-8 bytes, copied from the string's own storage
    /// when it lends it (native strings do): appending a `String.UTF8View`
    /// goes through a generic iterator, which log lines and cache keys built
    /// for every request paid for (callgrind).
    /// - Parameter text: The text to append.
    public mutating func appendUTF8(of text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: text.utf8)
        }
    }
}
