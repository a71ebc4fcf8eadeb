public import Foundation

/// The one place the portable code makes a Foundation `URL` from text.
///
/// `URL(string:)` answers differently by OS version for the same text: an app
/// linked on iOS 17 / macOS 14 or later gets invalid characters (a raw space,
/// non-ASCII, `|`, `%zz`) percent-encoded, an app running on iOS 16 / macOS 13
/// gets `nil`. So text is never handed to it as written: it is read as a
/// browser reads it (``WHATWGURL``), and Foundation is given that serialisation
/// spelled with only the bytes RFC 3986 allows where they stand
/// (``WHATWGURL/foundationSpelling(ofHref:)``), which every version holds byte
/// for byte and none repairs.
extension URL {
    /// The URL `text` as a browser reads it (a page's `src`, a `Location`
    /// field, an app's URL text), resolved against `base`, held by Foundation
    /// the same way on every OS version.
    ///
    /// The text is parsed by the WHATWG URL standard (see ``WHATWGURL``): tabs
    /// and newlines dropped, leading and trailing spaces and controls trimmed,
    /// backslashes read as `/`, dot segments resolved, a raw space or
    /// non-ASCII percent-encoded as UTF-8. The few bytes the standard leaves
    /// as written but RFC 3986 forbids (`|`, `[`, `]`, `\`, `^`, `` ` ``, `{`,
    /// `}` in a query or fragment, `|` in a path, a second `#`, a `%` not
    /// followed by two hex digits) are percent-encoded too, as Foundation on
    /// iOS 17 would do.
    ///
    /// - Parameters:
    ///   - text: the URL as written, absolute or relative.
    ///   - base: what a relative `text` resolves against (itself read from its
    ///     `absoluteString`).
    /// - Returns: `nil` when `text` is not a URL by the standard (relative
    ///   without a base, a bad host or port…), when its host needs IDNA
    ///   (not done, see ``WHATWGURL``), or when its authority holds a byte RFC
    ///   3986 forbids there (`http://a{b}.com/`).
    public init?(whatwg text: String, relativeTo base: URL? = nil) {
        guard let parsed = WHATWGURL.parse(text, relativeTo: base) else { return nil }
        self.init(whatwgHref: parsed.href)
    }

    /// The WHATWG serialisation `href` as Foundation holds it: its
    /// ``WHATWGURL/foundationSpelling(ofHref:)``, or `nil` when it has none.
    init?(whatwgHref href: String) {
        guard let spelling = WHATWGURL.foundationSpelling(ofHref: href) else { return nil }
        self.init(rfc3986: spelling)
    }

    /// `text` held byte for byte, or `nil`: only text RFC 3986 allows as it
    /// stands (as ``WHATWGURL/foundationSpelling(ofHref:)`` judges, not
    /// Foundation), so that no OS version repairs or refuses it. For text
    /// made from a URL Foundation already holds (a scheme swapped, a format
    /// token respelled), never for text from outside.
    init?(exactly text: String) {
        guard WHATWGURL.foundationSpelling(ofHref: text) == text else { return nil }
        self.init(rfc3986: text)
    }

    /// `spelling`, already what ``WHATWGURL/foundationSpelling(ofHref:)``
    /// gives, held by Foundation; `nil` (never expected) when Foundation
    /// would not hold it byte for byte.
    private init?(rfc3986 spelling: String) {
        guard let url = URL(string: spelling), url.absoluteString == spelling else { return nil }
        self = url
    }
}

extension WHATWGURL {
    /// `text` parsed against `base` (itself parsed from its `absoluteString`);
    /// `nil` when either does not parse.
    static func parse(_ text: String, relativeTo base: URL?) -> WHATWGURL? {
        guard let base else { return try? WHATWGURL(text) }
        guard let parsedBase = try? WHATWGURL(base.absoluteString) else { return nil }
        return try? WHATWGURL(text, relativeTo: parsedBase)
    }

    /// A URL serialisation (`scheme:[//authority]path[?query][#fragment]`, as
    /// ``href`` writes it) spelled with only what RFC 3986 allows where it
    /// stands: `href` itself when it already is (the common case, no copy),
    /// else with each forbidden byte of the path, query and fragment
    /// percent-encoded (`|` → `%7C`, a second `#` → `%23`, a `%` not followed
    /// by two hex digits → `%25`). That text is ASCII, and `URL(string:)` holds
    /// it unchanged on every OS version.
    ///
    /// - Returns: `nil` when the scheme or the authority (user info, host,
    ///   port) holds a byte RFC 3986 forbids there: such a host names no
    ///   server, and encoding it would name another.
    static func foundationSpelling(ofHref href: String) -> String? {
        var copy = href
        return copy.withUTF8 { bytes -> String? in
            guard let pathStart = authorityEnd(bytes) else { return nil }
            var part = Part.path
            var index = pathStart
            while index < bytes.count, Part.allows(bytes, at: index, in: &part) { index += 1 }
            guard index < bytes.count else { return href }
            var output = Array(bytes[..<index])
            output.reserveCapacity(bytes.count + 16)
            // The byte at `index` is the first one to encode, in `part`.
            while index < bytes.count {
                let byte = bytes[index]
                if Part.allows(bytes, at: index, in: &part) {
                    output.append(byte)
                } else {
                    output.append(UInt8(ascii: "%"))
                    output.append(PercentEncodeSet.hexDigit(byte >> 4))
                    output.append(PercentEncodeSet.hexDigit(byte & 0xF))
                }
                index += 1
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Where the path starts: after `scheme:` and, when `//` follows, the
    /// authority; `nil` when the scheme or the authority holds a byte RFC
    /// 3986 forbids there.
    private static func authorityEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            let byte = bytes[index]
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (index > 0 && isOther) else { return nil }
            index += 1
        }
        guard index > 0, index < bytes.count else { return nil }
        index += 1
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/")
        else { return index }
        index += 2
        // User info, host (an IPv6 literal in brackets) and port: the
        // serialiser leaves no `/`, `?` or `#` in them.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "%") {
                guard isEscape(bytes, at: index) else { return nil }
            } else {
                guard
                    isUnreservedOrSubDelim(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
                        || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
                else { return nil }
            }
            index += 1
        }
        return index
    }

    /// The part of a URL after its authority.
    private enum Part {
        case path, query, fragment

        /// Whether RFC 3986 allows the byte at `index` in `part`, moving
        /// `part` on to the next part at its first `?` or `#`.
        @inline(__always)
        static func allows(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, in part: inout Part) -> Bool {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "#"):
                guard part != .fragment else { return false }
                part = .fragment
                return true
            case UInt8(ascii: "?"):
                if part == .path { part = .query }
                return true
            case UInt8(ascii: "%"):
                return WHATWGURL.isEscape(bytes, at: index)
            case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"):
                return true
            default:
                return WHATWGURL.isUnreservedOrSubDelim(byte)
            }
        }
    }

    /// RFC 3986's `unreserved` and `sub-delims`: letters, digits, `-._~` and `!$&'()*+,;=`.
    @inline(__always)
    private static func isUnreservedOrSubDelim(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// Whether the `%` at `index` starts an escape: two hex digits follow.
    @inline(__always)
    private static func isEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + 2 < bytes.count && URLHost.hexValue(bytes[index + 1]) != nil
            && URLHost.hexValue(bytes[index + 2]) != nil
    }
}
