/// The WHATWG URL standard's percent-encode sets, over single bytes of UTF-8:
/// every byte of a non-ASCII code point is in every set, so encoding byte by
/// byte gives the standard's code-point-by-code-point result. `%` is in none,
/// so an existing escape, valid or not, is never encoded again.
enum PercentEncodeSet {
    /// C0 controls and everything above `~`.
    case c0Control
    /// C0 controls, space, `"`, `<`, `>`, `` ` ``.
    case fragment
    /// C0 controls, space, `"`, `#`, `<`, `>`.
    case query
    /// The query set and `'`.
    case specialQuery
    /// The query set and `?`, `^`, `` ` ``, `{`, `}`.
    case path
    /// The path set and `/`, `:`, `;`, `=`, `@`, `[` to `]`, `|`.
    case userinfo

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 0x20 || byte > 0x7E { return true }
        switch self {
        case .c0Control:
            return false
        case .fragment:
            return byte == 0x20 || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x60
        case .query:
            return byte == 0x20 || byte == 0x22 || byte == 0x23 || byte == 0x3C || byte == 0x3E
        case .specialQuery:
            return byte == 0x27 || Self.query.contains(byte)
        case .path:
            return byte == 0x3F || byte == 0x5E || byte == 0x60 || byte == 0x7B || byte == 0x7D
                || Self.query.contains(byte)
        case .userinfo:
            return byte == 0x2F || byte == 0x3A || byte == 0x3B || byte == 0x3D || byte == 0x40
                || (byte >= 0x5B && byte <= 0x5D) || byte == 0x7C || Self.path.contains(byte)
        }
    }

    /// Appends `byte` to `output`, as `%XX` when it is in the set.
    @inline(__always)
    func append(_ byte: UInt8, to output: inout [UInt8]) {
        guard contains(byte) else {
            output.append(byte)
            return
        }
        output.append(UInt8(ascii: "%"))
        output.append(Self.hexDigit(byte >> 4))
        output.append(Self.hexDigit(byte & 0xF))
    }

    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
