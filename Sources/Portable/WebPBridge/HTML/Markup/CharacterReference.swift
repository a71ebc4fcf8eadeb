/// Character references in attribute values, as far as URLs need them:
/// numeric references, and `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` (the
/// first four also without `;`, as browsers read them). For any other named
/// reference that a browser would decode, the answer is ``Decoded/unknown``
/// and the caller leaves the value as it is, rather than carry the 2,231-name
/// table for references no URL needs.
enum CharacterReference {
    enum Decoded: Equatable {
        /// The `&` is a plain ampersand (`?a=1&b=2`, `&copy=`, `&ampx`).
        case literal
        /// The reference's UTF-8 bytes and its length in the raw value.
        case decoded([UInt8], length: Int)
        /// A named reference a browser decodes and this table lacks.
        case unknown
    }

    /// The reference that starts at `raw[index]` (an `&`).
    static func decode(_ raw: ArraySlice<UInt8>, at index: Int) -> Decoded {
        let start = index + 1
        guard start < raw.endIndex else { return .literal }
        if raw[start] == UInt8(ascii: "#") { return numeric(raw, at: index) }
        var end = start
        while end < raw.endIndex, ASCII.isAlphanumeric(raw[end]) { end += 1 }
        guard end > start else { return .literal }
        let name = String(decoding: raw[start..<end], as: UTF8.self)
        if end < raw.endIndex, raw[end] == UInt8(ascii: ";") {
            if let bytes = semicolonNames[name] { return .decoded(bytes, length: end + 1 - index) }
            // Either a name from the full table or a legacy prefix followed by a
            // letter or digit (left alone in attributes): the former cannot be ruled out.
            return .unknown
        }
        // Without `;`, only a legacy name counts, and in an attribute only when
        // neither a letter, a digit nor `=` follows it (HTML's historical rule).
        guard let legacy = longestLegacyPrefix(of: raw[start..<end]) else { return .literal }
        guard legacy == end - start else { return .literal }
        if end < raw.endIndex, raw[end] == UInt8(ascii: "=") { return .literal }
        if let bytes = semicolonNames[name] { return .decoded(bytes, length: end - index) }
        return .unknown
    }

    private static func numeric(_ raw: ArraySlice<UInt8>, at index: Int) -> Decoded {
        var cursor = index + 2
        var radix: UInt32 = 10
        if cursor < raw.endIndex, raw[cursor] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            cursor += 1
        }
        let digitsStart = cursor
        var value: UInt32 = 0
        while cursor < raw.endIndex, let digit = ASCII.digitValue(raw[cursor], radix: radix) {
            value = min(value &* radix &+ digit, 0x11_0000)
            cursor += 1
        }
        guard cursor > digitsStart else { return .literal }
        if cursor < raw.endIndex, raw[cursor] == UInt8(ascii: ";") { cursor += 1 }
        // C1 controls are read through windows-1252 by browsers; no URL needs them.
        if (0x80...0x9F).contains(value) { return .unknown }
        let scalar = Unicode.Scalar(value).flatMap { $0.value == 0 ? nil : $0 } ?? "\u{FFFD}"
        return .decoded(Array(String(Character(scalar)).utf8), length: cursor - index)
    }

    private static let semicolonNames: [String: [UInt8]] = [
        "amp": [0x26], "AMP": [0x26], "lt": [0x3C], "LT": [0x3C], "gt": [0x3E], "GT": [0x3E],
        "quot": [0x22], "QUOT": [0x22], "apos": [0x27],
    ]

    /// The length of the longest name in ``legacyNames`` that `name` starts with.
    private static func longestLegacyPrefix(of name: ArraySlice<UInt8>) -> Int? {
        var length = min(name.count, 6)
        while length >= 2 {
            let prefix = String(decoding: name.prefix(length), as: UTF8.self)
            if legacyNames.contains(prefix) { return length }
            length -= 1
        }
        return nil
    }

    /// The named references browsers decode without a `;` (HTML's legacy list).
    private static let legacyNames: Set<String> = [
        "AElig", "AMP", "Aacute", "Acirc", "Agrave", "Aring", "Atilde", "Auml", "COPY", "Ccedil", "ETH", "Eacute",
        "Ecirc", "Egrave", "Euml", "GT", "Iacute", "Icirc", "Igrave", "Iuml", "LT", "Ntilde", "Oacute", "Ocirc",
        "Ograve", "Oslash", "Otilde", "Ouml", "QUOT", "REG", "THORN", "Uacute", "Ucirc", "Ugrave", "Uuml", "Yacute",
        "aacute", "acirc", "acute", "aelig", "agrave", "amp", "aring", "atilde", "auml", "brvbar", "ccedil", "cedil",
        "cent", "copy", "curren", "deg", "divide", "eacute", "ecirc", "egrave", "eth", "euml", "frac12", "frac14",
        "frac34", "gt", "iacute", "icirc", "iexcl", "igrave", "iquest", "iuml", "laquo", "lt", "macr", "micro",
        "middot", "nbsp", "not", "ntilde", "oacute", "ocirc", "ograve", "ordf", "ordm", "oslash", "otilde", "ouml",
        "para", "plusmn", "pound", "quot", "raquo", "reg", "sect", "shy", "sup1", "sup2", "sup3", "szlig", "thorn",
        "times", "uacute", "ucirc", "ugrave", "uml", "uuml", "yacute", "yen", "yuml",
    ]
}

/// ASCII byte classes and case folding, as the HTML tokenizer uses them.
enum ASCII {
    static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isAlphanumeric(_ byte: UInt8) -> Bool { isAlpha(byte) || isDigit(byte) }
    /// Tab, line feed, form feed, carriage return, space.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        if isDigit(byte) { return UInt32(byte - 0x30) }
        let lower = byte | 0x20
        if radix == 16, lower >= 0x61, lower <= 0x66 { return UInt32(lower - 0x61 + 10) }
        return nil
    }
}
