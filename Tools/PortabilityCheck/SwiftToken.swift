/// A token of a blanked code line: an identifier (`Mutex`, `#if`,
/// `@available`, `` `default` ``), a number (`16.0`), `#/`, `&&`, `||`, or one
/// punctuation character.
struct SwiftToken: Equatable {
    var text: String
    /// The 0-based byte column.
    var column: Int
    /// Whether it was written between backquotes (`` `default` ``).
    var wasBackquoted = false

    /// Splits one blanked line into tokens.
    static func tokens(of line: [UInt8]) -> [SwiftToken] {
        var tokens: [SwiftToken] = []
        var index = 0
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func text(_ range: Range<Int>) -> String { String(decoding: line[range], as: UTF8.self) }

        while index < line.count {
            let byte = line[index]
            let start = index
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
                continue
            }
            if isDigit(byte) {
                // A number, with the dots of a version (`10.14.4`).
                while index < line.count,
                    isIdentifierByte(line[index])
                        || (line[index] == UInt8(ascii: ".") && index + 1 < line.count && isDigit(line[index + 1]))
                {
                    index += 1
                }
            } else if isIdentifierByte(byte)
                || ((byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@")) && index + 1 < line.count
                    && isIdentifierByte(line[index + 1]) && !isDigit(line[index + 1]))
            {
                index += 1
                while index < line.count, isIdentifierByte(line[index]) { index += 1 }
            } else if byte == UInt8(ascii: "`") {
                index += 1
                while index < line.count, line[index] != UInt8(ascii: "`") { index += 1 }
                tokens.append(SwiftToken(text: text(start + 1..<index), column: start, wasBackquoted: true))
                index = min(index + 1, line.count)
                continue
            } else if index + 1 < line.count,
                [("#", "/"), ("&", "&"), ("|", "|")].contains(where: {
                    byte == UInt8(ascii: $0.0) && line[index + 1] == UInt8(ascii: $0.1)
                })
            {
                index += 2
            } else {
                index += 1
            }
            tokens.append(SwiftToken(text: text(start..<index), column: start))
        }
        return tokens
    }
}
