/// Blanks a Swift file's comments and string literals (to spaces, keeping
/// every newline), so that the scanner's token matching sees only code: an
/// `import Glibc` in a comment or a `"Mutex"` in a string is not a finding.
///
/// Kept: the code inside string interpolations (`\(…)`), and the opening
/// `#/` of an extended regex literal (whose use needs iOS 16), whose body is
/// blanked. Limits: a bare `/…/` regex literal is read as code, so a quote
/// inside one can throw the rest of the file off; the scanner reports no
/// crash, only possibly wrong findings, and the project writes `#/…/#`.
enum SwiftCodeBlanker {
    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let quote = UInt8(ascii: "\"")
    private static let hash = UInt8(ascii: "#")
    private static let slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*")
    private static let backslash = UInt8(ascii: "\\")
    private static let openParen = UInt8(ascii: "(")
    private static let closeParen = UInt8(ascii: ")")

    /// A string literal being read: its `#` count and whether it is `"""`.
    private struct StringContext {
        var hashes: Int
        var multiline: Bool
        /// Open parentheses inside the current interpolation.
        var parenDepth = 0
    }

    /// The code lines of `source`, comments and literals blanked.
    static func codeLines(of source: [UInt8]) -> [[UInt8]] {
        let blanked = blank(source)
        return blanked.split(separator: newline, omittingEmptySubsequences: false).map(Array.init)
    }

    static func blank(_ source: [UInt8]) -> [UInt8] {
        var out = source
        var index = 0
        /// Strings whose interpolation is being read as code, innermost last.
        var interpolations: [StringContext] = []
        var string: StringContext?

        func blankRange(_ range: Range<Int>) {
            for position in range where out[position] != newline { out[position] = space }
        }
        func hashes(at start: Int) -> Int {
            var end = start
            while end < source.count, source[end] == hash { end += 1 }
            return end - start
        }
        func matches(_ bytes: [UInt8], at position: Int) -> Bool {
            position + bytes.count <= source.count && Array(source[position..<position + bytes.count]) == bytes
        }

        while index < source.count {
            if var context = string {
                let byte = source[index]
                let closing = context.multiline ? [quote, quote, quote] : [quote]
                if byte == backslash, hashes(at: index + 1) >= context.hashes {
                    let after = index + 1 + context.hashes
                    if after < source.count, source[after] == openParen {
                        blankRange(index..<after + 1)
                        context.parenDepth = 0
                        interpolations.append(context)
                        string = nil
                        index = after + 1
                    } else {
                        blankRange(index..<min(after + 1, source.count))
                        index = after + 1
                    }
                } else if matches(closing, at: index), hashes(at: index + closing.count) >= context.hashes {
                    let end = index + closing.count + context.hashes
                    blankRange(index..<end)
                    string = nil
                    index = end
                } else if byte == newline, !context.multiline {
                    string = nil  // unterminated: the compiler reports it; go on with code
                    index += 1
                } else {
                    blankRange(index..<index + 1)
                    index += 1
                }
                continue
            }

            let byte = source[index]
            if byte == slash, index + 1 < source.count, source[index + 1] == slash {
                var end = index
                while end < source.count, source[end] != newline { end += 1 }
                blankRange(index..<end)
                index = end
            } else if byte == slash, index + 1 < source.count, source[index + 1] == star {
                var depth = 0
                var end = index
                repeat {
                    if matches([slash, star], at: end) {
                        depth += 1
                        end += 2
                    } else if matches([star, slash], at: end) {
                        depth -= 1
                        end += 2
                    } else {
                        end += 1
                    }
                } while depth > 0 && end < source.count
                blankRange(index..<min(end, source.count))
                index = end
            } else if byte == quote || byte == hash {
                let count = hashes(at: index)
                let after = index + count
                if after < source.count, source[after] == quote {
                    let multiline = matches([quote, quote, quote], at: after)
                    let end = after + (multiline ? 3 : 1)
                    blankRange(index..<end)
                    string = StringContext(hashes: count, multiline: multiline)
                    index = end
                } else if count > 0, after < source.count, source[after] == slash {
                    // An extended regex literal: keep `#/`, blank the body and the closing `/#`.
                    var end = after + 1
                    while end < source.count, !(source[end] == slash && hashes(at: end + 1) >= count) { end += 1 }
                    let close = min(end + 1 + count, source.count)
                    blankRange(after + 1..<close)
                    index = close
                } else {
                    index = max(after, index + 1)
                }
            } else if !interpolations.isEmpty, byte == openParen {
                interpolations[interpolations.count - 1].parenDepth += 1
                index += 1
            } else if !interpolations.isEmpty, byte == closeParen {
                if interpolations[interpolations.count - 1].parenDepth == 0 {
                    blankRange(index..<index + 1)
                    string = interpolations.removeLast()
                } else {
                    interpolations[interpolations.count - 1].parenDepth -= 1
                }
                index += 1
            } else {
                index += 1
            }
        }
        return out
    }
}
