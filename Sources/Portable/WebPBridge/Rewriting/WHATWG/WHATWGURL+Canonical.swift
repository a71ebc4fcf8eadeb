extension WHATWGURL {
    /// The href of the absolute URL `string`: `string` itself when a single
    /// scan proves the parser would give it back unchanged (the common case,
    /// an already-serialised `http(s)` URL), else the parser's output.
    ///
    /// - Throws: ``URLParseError`` as ``init(_:relativeTo:)`` does.
    static func href(of string: String) throws(URLParseError) -> String {
        var copy = string
        if copy.withUTF8({ isCanonicalHTTP($0) }) { return string }
        return try WHATWGURL(string).href
    }

    /// Whether `bytes` is an `http` or `https` URL exactly as the serialiser
    /// writes it, judged conservatively: any doubt (user info, a port, an
    /// numeric last label, a dot segment, a `%2e`, a byte some
    /// percent-encode set holds) answers `false`, and the parser decides.
    private static func isCanonicalHTTP(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index: Int
        if bytes.starts(with: "http://".utf8) {
            index = 7
        } else if bytes.starts(with: "https://".utf8) {
            index = 8
        } else {
            return false
        }
        // Host: lower-case letters, digits, `-` and `.`; the last label not a number.
        let hostStart = index
        var lastLabelStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") { break }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                break
            case UInt8(ascii: "."):
                if index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "/") { lastLabelStart = index + 1 }
            default:
                return false
            }
            index += 1
        }
        guard index > hostStart, index < bytes.count, lastLabelStart < index else { return false }
        let first = bytes[lastLabelStart]
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") { return false }
        // Path: no dot segment or `%2e`, nothing the path set encodes, no backslash.
        var previous: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/") { return false }
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "2"),
                bytes[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                return false
            }
            if byte == UInt8(ascii: "\\") || PercentEncodeSet.path.contains(byte) { return false }
            previous = byte
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "#") {
                if PercentEncodeSet.specialQuery.contains(bytes[index]) { return false }
                index += 1
            }
        }
        if index < bytes.count {
            index += 1
            while index < bytes.count {
                if PercentEncodeSet.fragment.contains(bytes[index]) { return false }
                index += 1
            }
        }
        return true
    }
}
