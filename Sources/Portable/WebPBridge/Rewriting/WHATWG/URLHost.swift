/// A URL's host as the WHATWG URL standard defines it.
public enum URLHost: Sendable, Hashable {
    /// An ASCII domain, lower-cased (`img.example.com`).
    case domain(String)
    /// An IPv4 address.
    case ipv4(UInt32)
    /// An IPv6 address: eight 16-bit pieces.
    case ipv6([UInt16])
    /// A non-special scheme's host, percent-encoded as written.
    case opaque(String)
    /// The empty host (`file:///`).
    case empty

    /// The host as it appears in an href (`[::1]`, `192.168.0.1`).
    public var serialized: String {
        switch self {
        case .domain(let name), .opaque(let name): return name
        case .empty: return ""
        case .ipv4(let address):
            return "\(address >> 24).\((address >> 16) & 0xFF).\((address >> 8) & 0xFF).\(address & 0xFF)"
        case .ipv6(let pieces):
            return "[" + Self.serializeIPv6(pieces) + "]"
        }
    }

    private static func serializeIPv6(_ pieces: [UInt16]) -> String {
        // The first longest run of two or more zero pieces becomes `::`.
        var compress: Int?
        var bestLength = 1
        var index = 0
        while index < 8 {
            guard pieces[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, pieces[end] == 0 { end += 1 }
            if end - index > bestLength {
                bestLength = end - index
                compress = index
            }
            index = end
        }
        var output = ""
        var ignoreZero = false
        for pieceIndex in 0..<8 {
            if ignoreZero, pieces[pieceIndex] == 0 { continue }
            ignoreZero = false
            if compress == pieceIndex {
                output += pieceIndex == 0 ? "::" : ":"
                ignoreZero = true
                continue
            }
            output += String(pieces[pieceIndex], radix: 16)
            if pieceIndex != 7 { output += ":" }
        }
        return output
    }
}

extension URLHost {
    /// The host parser: `input` as written between `//` (or `@`) and the port or path.
    static func parse(_ input: ArraySlice<UInt8>, isOpaque: Bool) throws(URLParseError) -> URLHost {
        if input.first == UInt8(ascii: "[") {
            guard input.count >= 2, input.last == UInt8(ascii: "]") else { throw .ipv6Invalid }
            return .ipv6(try parseIPv6(input.dropFirst().dropLast()))
        }
        if isOpaque {
            for byte in input where isForbiddenHostByte(byte) { throw .hostInvalidCodePoint }
            var output: [UInt8] = []
            output.reserveCapacity(input.count)
            for byte in input { PercentEncodeSet.c0Control.append(byte, to: &output) }
            return .opaque(String(decoding: output, as: UTF8.self))
        }
        let decoded = percentDecode(input)
        guard decoded.allSatisfy({ $0 < 0x80 }) else { throw .idnaUnsupported }
        let ascii = try domainToASCII(decoded)
        for byte in ascii where isForbiddenDomainByte(byte) { throw .domainInvalidCodePoint }
        if endsInANumber(ascii) { return .ipv4(try parseIPv4(ascii)) }
        return .domain(String(decoding: ascii, as: UTF8.self))
    }

    /// Bytes with every valid `%XX` decoded (invalid escapes kept).
    static func percentDecode(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = input.startIndex
        while index < input.endIndex {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.endIndex,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// UTS #46 ToASCII for an ASCII domain, as the standard runs it: ASCII
    /// lower-casing. `xn--` labels are kept as written, even when their
    /// Punycode is invalid (the standard's toascii.json: `xn--a`, `xn--0.com`
    /// and `xn--ls8h=` are all hosts).
    private static func domainToASCII(_ domain: [UInt8]) throws(URLParseError) -> [UInt8] {
        guard !domain.isEmpty else { throw .hostMissing }
        return domain.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }

    private static func isForbiddenHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x7C:
            return true
        default:
            return false
        }
    }

    private static func isForbiddenDomainByte(_ byte: UInt8) -> Bool {
        isForbiddenHostByte(byte) || byte <= 0x1F || byte == 0x25 || byte == 0x7F
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
