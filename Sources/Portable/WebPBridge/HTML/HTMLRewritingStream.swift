public import Foundation

/// One document going through an ``HTMLRewriter``: chunks in, chunks out.
///
/// The stream follows the HTML tokenizer's states far enough to know where
/// each tag, comment, CDATA section and raw-text element begins and ends,
/// whatever the chunk boundaries: `<script>` with its escaped and
/// double-escaped states (``ScriptData``); `<style>`, `<textarea>`,
/// `<title>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>` and
/// `<noscript>` (scripting on, as in a browser); `<plaintext>` to the end.
/// Inside SVG and MathML it follows the tree builder (``ForeignContent``):
/// there those names are ordinary elements, `<![CDATA[` is a section (in
/// HTML a bogus comment that ends at the first `>`), and only an HTML
/// element that breaks out (`<img>`…) is rewritten. `<image>` is an `img`,
/// as the tree builder makes it. It holds back only a start tag being read (at most
/// ``HTMLRewriter/Configuration/maxTagBytes``; a longer tag is passed on
/// untouched) and, inside `<style>`, one `url(...)` (at most 8 KiB), so its
/// memory is bounded whatever the input. The output of every chunking of a
/// document is the same. Call ``finish()`` at the end: whatever is held
/// (an unterminated tag, say) comes out as it was written.
///
/// A page is rewritten only in an ASCII-compatible encoding
/// (``HTMLEncoding/isASCIICompatible``): the stream first holds up to
/// 1,024 bytes to sniff it as a browser does (``HTMLEncodingSniffer``: a
/// byte order mark, ``HTMLRewriter/Configuration/charset``, `<meta
/// charset>`); a UTF-16 or ISO-2022-JP page passes through untouched.
public struct HTMLRewritingStream: Sendable {
    private let maxTagBytes: Int
    /// The transport layer's charset label, if any.
    private let charset: String?
    /// The page's first bytes, held until its encoding is known; `nil` after.
    private var sniffBuffer: [UInt8]? = []
    var resolver: VariantResolver
    private var state = State.text
    /// The start tag being read, from its `<`.
    private var tag: [UInt8] = []
    private var scanner = TagScanner(recordsAttributes: false)
    /// Bytes of `--` or `[CDATA[` matched after `<!`.
    private var declarationMatched: [UInt8] = []
    private var comment = CommentState.start
    private var cdataBrackets = 0
    /// Inside a raw-text element: its name and how much of `</name` has been seen.
    var rawText = RawText(name: [])
    /// Inside `<script>`: the script data states.
    var script = ScriptData()
    /// The open SVG and MathML elements.
    private var foreign = ForeignContent()
    /// Whether the end tag being read ends a raw-text element or a script
    /// (the tree builder's text mode: it closes no SVG/MathML element).
    private var endTagEndsText = false
    var css = CSSState.normal
    /// A `url(` … `)` held inside `<style>` until it is complete.
    var cssHold: [UInt8] = []
    var cssPrevious: UInt8 = 0

    /// The page's encoding as sniffed, once the stream has seen enough of
    /// the page (1,024 bytes, or 3 with a known ``HTMLRewriter/Configuration/charset``,
    /// or the whole page at ``finish()``); `nil` before.
    public private(set) var encoding: HTMLEncodingSniffer.Result?

    /// Whether the page passes through untouched because its encoding is
    /// not ASCII-compatible (known once ``encoding`` is).
    public var passesThroughUntouched: Bool { !(encoding?.isASCIICompatible ?? true) }

    /// How many URLs have been rewritten so far.
    public internal(set) var rewrittenURLCount = 0

    /// Bytes held back, waiting for the rest of a tag or of a CSS `url(...)`
    /// (never more than ``HTMLRewriter/Configuration/maxTagBytes`` plus
    /// 8 KiB), or, at the start, for the 1,024 bytes that decide the encoding.
    public var heldByteCount: Int { tag.count + cssHold.count + (sniffBuffer?.count ?? 0) }

    private enum State {
        case text
        /// After `<`, not yet written.
        case tagOpen
        /// A start tag being read into ``tag``.
        case startTag
        /// A start tag over the bound, written as it arrives.
        case longStartTag
        case endTagOpen
        case endTag
        /// After `<!`.
        case markupDeclarationOpen
        case comment
        case cdata
        case bogusComment
        case rawText
        case script
        case plaintext
    }

    /// The comment states that decide where a comment ends (`-->`, `--!>`, `<!-->`, `<!--->`).
    private enum CommentState {
        case start
        case startDash
        case body
        case endDash
        case end
        case endBang
    }

    /// The raw-text element being read: its name and how much of `</name` has been matched.
    struct RawText {
        var name: [UInt8]
        var matched = 0
        var isStyle: Bool { name.elementsEqual("style".utf8) }
    }

    /// Elements whose content is not markup, besides `<script>` (RCDATA and RAWTEXT).
    private static let rawTextNames: Set<[UInt8]> = Set(
        ["style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"].map { Array($0.utf8) })

    private static let cdataOpen = Array("[CDATA[".utf8)
    private static let commentOpen = Array("--".utf8)

    init(configuration: HTMLRewriter.Configuration) {
        maxTagBytes = max(256, configuration.maxTagBytes)
        charset = configuration.charset
        resolver = VariantResolver(configuration: configuration)
    }

    /// Rewrites the next chunk of the document.
    /// - Returns: The output that is final so far (possibly empty; possibly
    ///   longer than `chunk`).
    public mutating func rewrite(_ chunk: some Sequence<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(chunk.underestimatedCount + 64)
        rewrite(chunk, appendingTo: &output)
        return output
    }

    /// Rewrites the next chunk of the document, appending the output that
    /// is final so far to `output` (no allocation per chunk when the
    /// caller reuses its buffer).
    public mutating func rewrite(_ chunk: some Sequence<UInt8>, appendingTo output: inout [UInt8]) {
        let handled: Void? = chunk.withContiguousStorageIfAvailable { process($0, into: &output) }
        if handled == nil {
            Array(chunk).withUnsafeBufferPointer { process($0, into: &output) }
        }
    }

    /// Rewrites the next chunk of the document.
    public mutating func rewrite(_ chunk: Data) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(chunk.count + 64)
        chunk.withUnsafeBytes { process($0.bindMemory(to: UInt8.self), into: &output) }
        return output
    }

    /// Ends the document: what is still held (an unterminated tag, a `<`,
    /// an unclosed CSS `url(`) is returned as it was written.
    public mutating func finish() -> [UInt8] {
        var output: [UInt8] = []
        if let buffer = sniffBuffer { decideEncoding(buffer, into: &output) }
        if state == .tagOpen { output.append(UInt8(ascii: "<")) }
        output += tag
        output += cssHold
        tag = []
        cssHold = []
        state = .text
        return output
    }

    private mutating func process(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        if var buffer = sniffBuffer {
            buffer += input
            guard HTMLEncodingSniffer.canDecide(after: buffer.count, charset: charset) else {
                sniffBuffer = buffer
                return
            }
            decideEncoding(buffer, into: &output)
            return
        }
        if passesThroughUntouched {
            output += input
            return
        }
        var index = 0
        let count = input.count
        while index < count {
            switch state {
            case .text:
                let start = index
                while index < count, input[index] != UInt8(ascii: "<") { index += 1 }
                output += UnsafeBufferPointer(rebasing: input[start..<index])
                if index < count {
                    state = .tagOpen
                    index += 1
                }
            case .tagOpen:
                let byte = input[index]
                if ASCII.isAlpha(byte) {
                    tag = [UInt8(ascii: "<")]
                    scanner = TagScanner(recordsAttributes: true)
                    state = .startTag
                } else if byte == UInt8(ascii: "/") {
                    output += [UInt8(ascii: "<"), byte]
                    state = .endTagOpen
                    index += 1
                } else if byte == UInt8(ascii: "!") {
                    output += [UInt8(ascii: "<"), byte]
                    declarationMatched = []
                    state = .markupDeclarationOpen
                    index += 1
                } else if byte == UInt8(ascii: "?") {
                    output.append(UInt8(ascii: "<"))
                    state = .bogusComment
                } else {
                    output.append(UInt8(ascii: "<"))
                    state = .text
                }
            case .startTag:
                index = readStartTag(input, from: index, into: &output)
            case .longStartTag:
                let byte = input[index]
                output.append(byte)
                index += 1
                if scanner.consume(byte, at: 0) {
                    let treatment = foreign.startTag(scanner.name, selfClosing: scanner.isSelfClosing) { _ in nil }
                    if treatment == .html { enterContent(after: scanner) } else { state = .text }
                }
            case .endTagOpen:
                let byte = input[index]
                if ASCII.isAlpha(byte) {
                    scanner = TagScanner(recordsAttributes: false)
                    endTagEndsText = false
                    state = .endTag
                } else if byte == UInt8(ascii: ">") {
                    output.append(byte)
                    index += 1
                    state = .text
                } else {
                    state = .bogusComment
                }
            case .endTag:
                let byte = input[index]
                output.append(byte)
                index += 1
                if scanner.consume(byte, at: 0) { endTag() }
            case .markupDeclarationOpen:
                let byte = input[index]
                // `<![CDATA[` opens a section only in SVG and MathML; in HTML it is a bogus comment.
                if declarationMatched.isEmpty, byte != UInt8(ascii: "-"),
                    byte != UInt8(ascii: "[") || !foreign.allowsCDATA
                {
                    state = .bogusComment
                    continue
                }
                let target = (declarationMatched.first ?? byte) == UInt8(ascii: "[") ? Self.cdataOpen : Self.commentOpen
                guard byte == target[declarationMatched.count] else {
                    state = .bogusComment
                    continue
                }
                output.append(byte)
                index += 1
                declarationMatched.append(byte)
                if declarationMatched.count == target.count {
                    if target.count == 2 {
                        comment = .start
                        state = .comment
                    } else {
                        cdataBrackets = 0
                        state = .cdata
                    }
                }
            case .comment:
                let byte = input[index]
                output.append(byte)
                index += 1
                if commentEnds(at: byte) { state = .text }
            case .cdata:
                let byte = input[index]
                output.append(byte)
                index += 1
                if byte == UInt8(ascii: "]") {
                    cdataBrackets = min(cdataBrackets + 1, 2)
                } else if byte == UInt8(ascii: ">"), cdataBrackets == 2 {
                    state = .text
                } else {
                    cdataBrackets = 0
                }
            case .bogusComment:
                let start = index
                while index < count, input[index] != UInt8(ascii: ">") { index += 1 }
                if index < count {
                    index += 1
                    state = .text
                }
                output += UnsafeBufferPointer(rebasing: input[start..<index])
            case .rawText:
                index = readRawText(input, from: index, into: &output)
            case .script:
                index = readScript(input, from: index, into: &output)
            case .plaintext:
                output += UnsafeBufferPointer(rebasing: input[index...])
                index = count
            }
        }
    }

    /// Sniffs the encoding from the page's first bytes, then reads them.
    private mutating func decideEncoding(_ buffer: [UInt8], into output: inout [UInt8]) {
        sniffBuffer = nil
        encoding = HTMLEncodingSniffer.sniff(buffer, charset: charset)
        buffer.withUnsafeBufferPointer { process($0, into: &output) }
    }

    /// Reads start-tag bytes into ``tag`` until the tag ends (then rewrites
    /// it) or passes the bound (then writes it as it is and goes on without holding).
    private mutating func readStartTag(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, into output: inout [UInt8]
    ) -> Int {
        var index = start
        while index < input.count {
            let byte = input[index]
            index += 1
            tag.append(byte)
            if scanner.consume(byte, at: tag.count - 1) {
                let complete = tag
                let treatment = foreign.startTag(scanner.name, selfClosing: scanner.isSelfClosing) {
                    [scanner] name in scanner.value(of: name, in: complete).flatMap { AttributeValue($0)?.decoded }
                }
                if treatment == .html,
                    let rewritten = StartTagRewriter.rewrite(tag, scanner: scanner, resolver: &resolver)
                {
                    output += rewritten.tag
                    rewrittenURLCount += rewritten.count
                } else {
                    output += tag
                }
                tag = []
                if treatment == .html { enterContent(after: scanner) } else { state = .text }
                return index
            }
            if tag.count >= maxTagBytes {
                output += tag
                tag = []
                scanner.stopRecording()
                state = .longStartTag
                return index
            }
        }
        return index
    }

    /// After a start tag: raw text for the elements whose content is not markup.
    private mutating func enterContent(after scanner: TagScanner) {
        if scanner.nameIs("plaintext") {
            state = .plaintext
        } else if scanner.nameIs("script") {
            script = ScriptData()
            state = .script
        } else if scanner.nameLength == scanner.name.count, Self.rawTextNames.contains(scanner.name) {
            rawText = RawText(name: scanner.name)
            css = .normal
            cssPrevious = 0
            state = .rawText
        } else {
            state = .text
        }
    }

    /// Whether `byte` ends the comment (the tokenizer's comment states).
    private mutating func commentEnds(at byte: UInt8) -> Bool {
        let dash = UInt8(ascii: "-")
        let greaterThan = UInt8(ascii: ">")
        while true {
            switch comment {
            case .start, .startDash:
                if byte == greaterThan { return true }
                if byte == dash {
                    comment = comment == .start ? .startDash : .end
                    return false
                }
                comment = .body
            case .body:
                if byte == dash { comment = .endDash }
                return false
            case .endDash:
                if byte == dash {
                    comment = .end
                    return false
                }
                comment = .body
            case .end:
                if byte == greaterThan { return true }
                if byte == UInt8(ascii: "!") {
                    comment = .endBang
                    return false
                }
                if byte == dash { return false }
                comment = .body
            case .endBang:
                if byte == greaterThan { return true }
                if byte == dash {
                    comment = .endDash
                    return false
                }
                comment = .body
            }
        }
    }

    /// Leaves raw text: `byte` follows `</name` and starts the end tag's remainder.
    mutating func leaveRawText(at byte: UInt8, into output: inout [UInt8]) {
        output.append(byte)
        scanner = TagScanner(recordsAttributes: false)
        endTagEndsText = true
        state = scanner.consume(byte, at: 0) ? .text : .endTag
    }

    /// An end tag has been read: it may close SVG or MathML elements.
    private mutating func endTag() {
        if !endTagEndsText { foreign.endTag(scanner.name) }
        state = .text
    }
}
