/// Raw-text elements: their content is written as it comes until the
/// matching end tag (`</script`, `</style`… followed by a space, `/` or
/// `>`, in any case), with `<style>`'s CSS read on the way for `url(...)`.
extension HTMLRewritingStream {
    /// Where the CSS inside `<style>` is, as far as `url(...)` needs.
    enum CSSState {
        case normal
        /// After `/`: a comment may start.
        case slash
        case comment
        /// After `*` in a comment: it may end.
        case commentStar
        case string(quote: UInt8, escaped: Bool)
        /// `u`, `ur` or `url` held (that many bytes of `url(`).
        case urlPrefix(Int)
        /// After `url(`: the token is held until its `)`.
        case urlBody(URLBody)
    }

    /// What is known about the `url(...)` being held.
    struct URLBody {
        /// The open quote, while inside a quoted URL.
        var quote: UInt8?
        var escaped = false
        /// Whether anything but whitespace has come after `url(`.
        var sawContent = false
    }

    /// The longest CSS `url(...)` held inside `<style>`; a longer one is
    /// passed on untouched (an inline `data:` image, say).
    static let maxCSSURLBytes = 8_192

    private static let urlOpen = Array("url(".utf8)

    /// Reads `<script>` content up to the `</script` that ends it.
    mutating func readScript(_ input: UnsafeBufferPointer<UInt8>, from start: Int, into output: inout [UInt8]) -> Int {
        var index = start
        while index < input.count {
            if script.isInPlainData {
                // Nothing to look at before the next `<`.
                let run = index
                while index < input.count, input[index] != UInt8(ascii: "<") { index += 1 }
                output += UnsafeBufferPointer(rebasing: input[run..<index])
                if index == input.count { return index }
            }
            let byte = input[index]
            index += 1
            if script.endsScript(at: byte) {
                leaveRawText(at: byte, into: &output)
                return index
            }
            output.append(byte)
        }
        return index
    }

    mutating func readRawText(_ input: UnsafeBufferPointer<UInt8>, from start: Int, into output: inout [UInt8]) -> Int {
        var index = start
        let isStyle = rawText.isStyle
        while index < input.count {
            if !isStyle, rawText.matched == 0 {
                // Nothing to look at before the next `<`.
                let run = index
                while index < input.count, input[index] != UInt8(ascii: "<") { index += 1 }
                output += UnsafeBufferPointer(rebasing: input[run..<index])
                if index == input.count { return index }
            }
            let byte = input[index]
            index += 1
            if endTagCompletes(at: byte) {
                flushCSSHold(into: &output)
                leaveRawText(at: byte, into: &output)
                return index
            }
            if isStyle { readCSS(byte, into: &output) } else { output.append(byte) }
        }
        return index
    }

    /// Advances the `</name` match; `true` when `byte` is the space, `/` or
    /// `>` after a complete match (the element ends).
    private mutating func endTagCompletes(at byte: UInt8) -> Bool {
        let complete = rawText.name.count + 2
        if rawText.matched == complete {
            rawText.matched = 0
            if ASCII.isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { return true }
        }
        let expected: UInt8
        switch rawText.matched {
        case 0: expected = UInt8(ascii: "<")
        case 1: expected = UInt8(ascii: "/")
        default: expected = rawText.name[rawText.matched - 2]
        }
        if ASCII.lowercased(byte) == expected {
            rawText.matched += 1
        } else {
            rawText.matched = byte == UInt8(ascii: "<") ? 1 : 0
        }
        return false
    }

    private mutating func readCSS(_ byte: UInt8, into output: inout [UInt8]) {
        switch css {
        case .normal:
            if byte == UInt8(ascii: "/") {
                css = .slash
            } else if byte | 0x20 == UInt8(ascii: "u"), !CSSURLs.isNameByte(cssPrevious) {
                cssHold = [byte]
                css = .urlPrefix(1)
                return
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                css = .string(quote: byte, escaped: false)
            }
            output.append(byte)
            cssPrevious = byte
        case .slash:
            css = .normal
            if byte == UInt8(ascii: "*") {
                css = .comment
                output.append(byte)
                cssPrevious = byte
            } else {
                readCSS(byte, into: &output)
            }
        case .comment:
            output.append(byte)
            if byte == UInt8(ascii: "*") { css = .commentStar }
        case .commentStar:
            output.append(byte)
            if byte == UInt8(ascii: "/") {
                css = .normal
                cssPrevious = byte
            } else if byte != UInt8(ascii: "*") {
                css = .comment
            }
        case .string(let quote, let escaped):
            output.append(byte)
            cssPrevious = byte
            if escaped {
                css = .string(quote: quote, escaped: false)
            } else if byte == UInt8(ascii: "\\") {
                css = .string(quote: quote, escaped: true)
            } else if byte == quote || byte == 0x0A {
                css = .normal
            }
        case .urlPrefix(let matched):
            guard ASCII.lowercased(byte) == Self.urlOpen[matched] else {
                flushCSSHold(into: &output)
                readCSS(byte, into: &output)
                return
            }
            cssHold.append(byte)
            css = matched + 1 == Self.urlOpen.count ? .urlBody(URLBody()) : .urlPrefix(matched + 1)
        case .urlBody(var body):
            // `</style` ends the element whatever the CSS: never hold a `<`.
            if byte == UInt8(ascii: "<") {
                flushCSSHold(into: &output)
                readCSS(byte, into: &output)
                return
            }
            cssHold.append(byte)
            if cssHold.count > Self.maxCSSURLBytes {
                flushCSSHold(into: &output)
                return
            }
            if let quote = body.quote {
                if body.escaped {
                    body.escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    body.escaped = true
                } else if byte == quote {
                    body.quote = nil
                }
            } else if byte == UInt8(ascii: ")") {
                completeCSSURL(into: &output)
                return
            } else if !body.sawContent, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                body.quote = byte
                body.sawContent = true
            } else if !ASCII.isWhitespace(byte) {
                body.sawContent = true
            }
            css = .urlBody(body)
        }
    }

    /// Writes a complete `url(...)`, its URL replaced when it has a variant.
    private mutating func completeCSSURL(into output: inout [UInt8]) {
        if let span = CSSURLs.spans(in: cssHold).first {
            let range = VariantResolver.trimmedRange(cssHold[span.range])
            if let variant = resolver.variant(for: cssHold[range]) {
                output += cssHold[..<range.lowerBound]
                output += Array(CSSURLs.escape(variant, quote: span.quote).utf8)
                output += cssHold[range.upperBound...]
                rewrittenURLCount += 1
                cssHold = []
            }
        }
        flushCSSHold(into: &output)
        cssPrevious = UInt8(ascii: ")")
    }

    /// Writes what is held as it was and returns to plain CSS.
    mutating func flushCSSHold(into output: inout [UInt8]) {
        if let last = cssHold.last { cssPrevious = last }
        output += cssHold
        cssHold = []
        css = .normal
    }
}
