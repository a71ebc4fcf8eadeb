import Foundation

/// Checks that bytes a server sent start with a well-formed HTTP/1.x
/// response head (RFC 9112 §4 and §5).
enum ResponseHeadCheck {
    /// What is wrong with the first response head in `bytes`, or `nil`.
    static func problem(in bytes: Data) -> String? {
        guard let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) else { return "no end of head" }
        let head = bytes[bytes.startIndex..<end.lowerBound]
        let lines = head.split(separator: Data("\r\n".utf8), omittingEmptySubsequences: false)
        guard let statusLine = lines.first else { return "empty head" }
        let status = [UInt8](statusLine)
        let prefix = Array("HTTP/1.".utf8)
        guard status.count >= 12, Array(status[0..<7]) == prefix,
            status[7] == UInt8(ascii: "0") || status[7] == UInt8(ascii: "1"),
            status[8] == UInt8(ascii: " "),
            status[9...11].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            status.count == 12 || status[12] == UInt8(ascii: " ")
        else { return "bad status line" }
        for line in lines.dropFirst() {
            let field = [UInt8](line)
            guard let colon = field.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return "field without a name" }
            guard field[..<colon].allSatisfy(isTokenCharacter) else { return "field name is not a token" }
            guard field[(colon + 1)...].allSatisfy({ $0 == 9 || (32...126).contains($0) || $0 >= 128 }) else {
                return "control byte in a field value"
            }
        }
        return nil
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
