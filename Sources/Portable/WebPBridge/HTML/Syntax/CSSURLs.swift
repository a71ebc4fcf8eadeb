/// `url(...)` in CSS text (a `style` attribute, or one `url(...)` held from
/// a `<style>` element): where each URL lies, and how a replacement is
/// written back so that CSS reads it as the same token. Comments and
/// strings are skipped, so `/* url(a.jpg) */` and `content: "url(a.jpg)"`
/// stay as written; so does a `url(` whose token is malformed.
enum CSSURLs {
    /// One URL: its bytes (inside the quotes, or trimmed when unquoted) and its quote.
    struct Span {
        var range: Range<Int>
        var quote: UInt8?
    }

    /// Every well-formed `url(...)` in `css`.
    static func spans(in css: [UInt8]) -> [Span] {
        var spans: [Span] = []
        var index = 0
        let count = css.count
        while index < count {
            let byte = css[index]
            if byte == UInt8(ascii: "/"), index + 1 < count, css[index + 1] == UInt8(ascii: "*") {
                index = endOfComment(css, from: index + 2)
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index = endOfString(css, from: index + 1, quote: byte)
            } else if startsURLFunction(css, at: index) {
                let (span, next) = urlToken(css, from: index + 4)
                if let span { spans.append(span) }
                index = next
            } else {
                index += 1
            }
        }
        return spans
    }

    /// `url(` at `index`, not the tail of a longer name (`myurl(`).
    static func startsURLFunction(_ css: [UInt8], at index: Int) -> Bool {
        guard index + 3 < css.count, css[index] | 0x20 == UInt8(ascii: "u"), css[index + 1] | 0x20 == UInt8(ascii: "r"),
            css[index + 2] | 0x20 == UInt8(ascii: "l"), css[index + 3] == UInt8(ascii: "(")
        else { return false }
        return index == 0 || !isNameByte(css[index - 1])
    }

    /// Bytes that continue a CSS identifier.
    static func isNameByte(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "\\") || byte >= 0x80
    }

    /// The URL after `url(` and the index after its `)`; `nil` for a malformed token.
    private static func urlToken(_ css: [UInt8], from start: Int) -> (Span?, Int) {
        var index = start
        let count = css.count
        while index < count, ASCII.isWhitespace(css[index]) { index += 1 }
        guard index < count else { return (nil, index) }
        let quote = css[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let contentStart = index + 1
            let afterString = endOfString(css, from: contentStart, quote: quote)
            guard afterString <= count, css[afterString - 1] == quote, afterString - 1 >= contentStart else {
                return (nil, afterString)
            }
            var close = afterString
            while close < count, ASCII.isWhitespace(css[close]) { close += 1 }
            guard close < count, css[close] == UInt8(ascii: ")") else { return (nil, afterString) }
            return (Span(range: contentStart..<(afterString - 1), quote: quote), close + 1)
        }
        let contentStart = index
        while index < count {
            let byte = css[index]
            if byte == UInt8(ascii: ")") { return (Span(range: contentStart..<index, quote: nil), index + 1) }
            if ASCII.isWhitespace(byte) {
                let contentEnd = index
                while index < count, ASCII.isWhitespace(css[index]) { index += 1 }
                guard index < count, css[index] == UInt8(ascii: ")") else { return (nil, index) }
                return (Span(range: contentStart..<contentEnd, quote: nil), index + 1)
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "(") {
                return (nil, index)
            }
            index += 1
        }
        return (nil, index)
    }

    private static func endOfComment(_ css: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < css.count {
            if css[index] == UInt8(ascii: "*"), css[index + 1] == UInt8(ascii: "/") { return index + 2 }
            index += 1
        }
        return css.count
    }

    /// The index after the closing quote (or where the string breaks off).
    private static func endOfString(_ css: [UInt8], from start: Int, quote: UInt8) -> Int {
        var index = start
        while index < css.count {
            let byte = css[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == quote { return index + 1 }
            if byte == 0x0A { return index }
            index += 1
        }
        return css.count
    }

    /// `url` escaped for its place: inside `quote`, or unquoted (where
    /// parentheses, quotes, whitespace and backslashes need a backslash).
    static func escape(_ url: String, quote: UInt8?) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(url.utf8.count + 8)
        for scalar in url.unicodeScalars {
            switch scalar {
            case "\\":
                output += "\\\\"
            case "\"" where quote != UInt8(ascii: "'"), "'" where quote != UInt8(ascii: "\""):
                output += "\\" + String(scalar)
            case "(" where quote == nil, ")" where quote == nil:
                output += "\\" + String(scalar)
            case " " where quote == nil:
                output += "\\20 "
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
