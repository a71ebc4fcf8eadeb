/// The HTML tokenizer's tag states (WHATWG §13.2.5.8–13.2.5.40), one byte at
/// a time: where a tag ends (a `>` outside quoted values), its lower-cased
/// name, and, when asked, where each attribute's name and value lie. Fed the
/// bytes after `<` (or `</`), so a quoted `>` never ends a tag early and a
/// quote that is not after `=` is part of a name, as in a browser.
struct TagScanner {
    /// One attribute, as offsets into the bytes the scanner was fed
    /// (counting from the tag's `<`).
    struct Attribute {
        var nameStart: Int
        var nameEnd: Int
        /// The value's bytes without its quotes; `nil` for `<img ismap>`.
        var value: Range<Int>?
        /// `"` or `'`, or `nil` for an unquoted (or missing) value.
        var quote: UInt8?
    }

    private enum State {
        case tagName
        case beforeAttributeName
        case attributeName
        case afterAttributeName
        case beforeAttributeValue
        case doubleQuotedValue
        case singleQuotedValue
        case unquotedValue
        case afterQuotedValue
        case selfClosingStart
    }

    /// The names of elements whose content the rewriter treats specially
    /// are at most 9 bytes (`plaintext`); longer names are kept truncated.
    static let maxNameBytes = 16

    private var state = State.tagName
    /// The lower-cased name, at most ``maxNameBytes`` bytes.
    private(set) var name: [UInt8] = []
    /// The full name's length (it may exceed what ``name`` holds).
    private(set) var nameLength = 0
    /// Whether attribute positions are kept (start tags that are buffered).
    var recordsAttributes: Bool
    private(set) var attributes: [Attribute] = []
    /// Whether the tag ended with `/>`.
    private(set) var isSelfClosing = false

    init(recordsAttributes: Bool) {
        self.recordsAttributes = recordsAttributes
    }

    /// Stops recording (the tag is too long to rewrite) and forgets what was kept.
    mutating func stopRecording() {
        recordsAttributes = false
        attributes = []
    }

    /// Consumes the byte at `offset`; returns `true` when it is the tag's closing `>`.
    mutating func consume(_ byte: UInt8, at offset: Int) -> Bool {
        switch state {
        case .tagName:
            if ASCII.isWhitespace(byte) {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: "/") {
                state = .selfClosingStart
            } else if byte == UInt8(ascii: ">") {
                return true
            } else {
                if name.count < Self.maxNameBytes { name.append(ASCII.lowercased(byte)) }
                nameLength += 1
            }
        case .beforeAttributeName:
            return beforeAttributeName(byte, at: offset)
        case .attributeName:
            if ASCII.isWhitespace(byte) {
                endName(at: offset)
                state = .afterAttributeName
            } else if byte == UInt8(ascii: "/") {
                endName(at: offset)
                state = .selfClosingStart
            } else if byte == UInt8(ascii: "=") {
                endName(at: offset)
                state = .beforeAttributeValue
            } else if byte == UInt8(ascii: ">") {
                endName(at: offset)
                return true
            }
        case .afterAttributeName:
            if ASCII.isWhitespace(byte) { return false }
            if byte == UInt8(ascii: "/") {
                state = .selfClosingStart
            } else if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == UInt8(ascii: ">") {
                return true
            } else {
                startAttribute(at: offset)
            }
        case .beforeAttributeValue:
            if ASCII.isWhitespace(byte) { return false }
            if byte == UInt8(ascii: "\"") {
                startValue(at: offset + 1, quote: byte)
                state = .doubleQuotedValue
            } else if byte == UInt8(ascii: "'") {
                startValue(at: offset + 1, quote: byte)
                state = .singleQuotedValue
            } else if byte == UInt8(ascii: ">") {
                return true
            } else {
                startValue(at: offset, quote: nil)
                state = .unquotedValue
            }
        case .doubleQuotedValue:
            if byte == UInt8(ascii: "\"") {
                endValue(at: offset)
                state = .afterQuotedValue
            }
        case .singleQuotedValue:
            if byte == UInt8(ascii: "'") {
                endValue(at: offset)
                state = .afterQuotedValue
            }
        case .unquotedValue:
            if ASCII.isWhitespace(byte) {
                endValue(at: offset)
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                endValue(at: offset)
                return true
            }
        case .afterQuotedValue:
            if ASCII.isWhitespace(byte) {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: "/") {
                state = .selfClosingStart
            } else if byte == UInt8(ascii: ">") {
                return true
            } else {
                return beforeAttributeName(byte, at: offset)
            }
        case .selfClosingStart:
            if byte == UInt8(ascii: ">") {
                isSelfClosing = true
                return true
            }
            return beforeAttributeName(byte, at: offset)
        }
        return false
    }

    private mutating func beforeAttributeName(_ byte: UInt8, at offset: Int) -> Bool {
        if ASCII.isWhitespace(byte) {
            state = .beforeAttributeName
        } else if byte == UInt8(ascii: "/") {
            state = .selfClosingStart
        } else if byte == UInt8(ascii: ">") {
            return true
        } else {
            // `=` here starts a name (a parse error browsers forgive), as any other byte does.
            startAttribute(at: offset)
        }
        return false
    }

    private mutating func startAttribute(at offset: Int) {
        state = .attributeName
        guard recordsAttributes else { return }
        attributes.append(Attribute(nameStart: offset, nameEnd: offset, value: nil, quote: nil))
    }

    private mutating func endName(at offset: Int) {
        guard recordsAttributes, !attributes.isEmpty else { return }
        attributes[attributes.count - 1].nameEnd = offset
    }

    private mutating func startValue(at offset: Int, quote: UInt8?) {
        guard recordsAttributes, !attributes.isEmpty else { return }
        attributes[attributes.count - 1].value = offset..<offset
        attributes[attributes.count - 1].quote = quote
    }

    private mutating func endValue(at offset: Int) {
        guard recordsAttributes, !attributes.isEmpty, let value = attributes[attributes.count - 1].value else {
            return
        }
        attributes[attributes.count - 1].value = value.lowerBound..<offset
    }

    /// The bytes of the first attribute named `name` (lower-case ASCII) in
    /// `tag`, the bytes the scanner was fed, as written (not decoded); an
    /// empty slice for an attribute without a value, `nil` when absent.
    func value(of name: String, in tag: [UInt8]) -> ArraySlice<UInt8>? {
        for attribute in attributes
        where tag[attribute.nameStart..<attribute.nameEnd].lazy.map(ASCII.lowercased).elementsEqual(name.utf8) {
            return attribute.value.map { tag[$0] } ?? []
        }
        return nil
    }

    /// Whether the name is exactly `candidate` (lower-case ASCII).
    func nameIs(_ candidate: String) -> Bool {
        nameLength == candidate.utf8.count && name.elementsEqual(candidate.utf8)
    }
}
