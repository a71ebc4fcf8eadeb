/// The grammar of HTTP field names and values (RFC 9110 §5), checked
/// wherever a field crosses a trust boundary: when the server accepts a
/// request head, when a loader writes a field upstream, and when an
/// upstream's response field is relayed to a client. One definition, so
/// the three cannot drift apart.
public enum HTTPFieldSyntax {
    /// Whether `text` is a `token` (RFC 9110 §5.6.2): one or more of
    /// `A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~`. Field names and methods
    /// must be tokens; a name with a space, a colon or a control byte is not.
    public static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && allBytes(of: text, satisfy: isTokenByte)
    }

    /// ``isToken(_:)`` for a `String`, without generic dispatch: a server
    /// calls it for every field of every request.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && allBytes(of: text, satisfy: isTokenByte)
    }

    /// Whether `text` may be a field value (RFC 9110 §5.5): no control byte
    /// other than horizontal tab — in particular no CR, LF or NUL, which
    /// would end the field or the line early for one parser and not for
    /// another. Bytes from 0x80 up (`obs-text`) are allowed.
    public static func isValidValue(_ text: some StringProtocol) -> Bool {
        allBytes(of: text, satisfy: isValueByte)
    }

    /// ``isValidValue(_:)`` for a `String`, without generic dispatch.
    public static func isValidValue(_ text: String) -> Bool {
        allBytes(of: text, satisfy: isValueByte)
    }

    /// ``isValidValue(_:)`` for a value's bytes as sent, which need not be UTF-8.
    public static func isValidValue(bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy(isValueByte)
    }

    /// Whether `text` may be a request target as sent on the request line
    /// (RFC 9112 §3.2): no space and no control byte, which would split or
    /// end the line differently for different parsers.
    public static func isValidTarget(_ text: String) -> Bool {
        allBytes(of: text, satisfy: isTargetByte)
    }

    /// Whether `name: value` may be written as one field line.
    public static func isValidField(name: some StringProtocol, value: some StringProtocol) -> Bool {
        isToken(name) && isValidValue(value)
    }

    /// Checks every UTF-8 byte of `text`: over its contiguous storage when it
    /// has one (every native `String` and `Substring`), so a server checking
    /// each request head does not pay a generic iterator per byte.
    private static func allBytes(of text: some StringProtocol, satisfy predicate: (UInt8) -> Bool) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy(predicate) }) {
            return result
        }
        return text.utf8.allSatisfy(predicate)
    }

    private static func isValueByte(_ byte: UInt8) -> Bool { byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }

    private static func isTargetByte(_ byte: UInt8) -> Bool { byte > 0x20 && byte != 0x7F }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
