import Foundation

/// Turns one URL as a page wrote it (references already decoded) into the
/// text of its variant, or `nil` to leave it alone: the one place where the
/// HTML rewriter meets ``Rewriter``, so a page's variants are exactly the
/// URLs and cache keys the pipeline and the bridges use.
struct VariantResolver: Sendable {
    private let rewriter: Rewriter
    private let scheme: WebViewScheme?
    private let localPrefix: String?
    /// What relative URLs resolve against: the configured base, then the
    /// document's first `<base href>`.
    private(set) var base: URL?
    private var documentBaseSeen = false

    /// The longest URL considered; longer ones (inline `data:` images, say) are left alone.
    static let maxURLBytes = 8_192

    init(configuration: HTMLRewriter.Configuration) {
        rewriter = configuration.rewriter
        scheme = configuration.scheme
        localPrefix = configuration.localPrefix
        base = configuration.baseURL
    }

    /// Adopts the first `<base href>` (resolved against the configured
    /// base); later ones are ignored, as browsers ignore them.
    mutating func adoptDocumentBase(_ href: ArraySlice<UInt8>) {
        guard !documentBaseSeen else { return }
        documentBaseSeen = true
        guard let text = Self.text(of: Self.trimmed(href)), let url = URL(whatwg: text, relativeTo: base),
            let urlScheme = url.scheme?.lowercased(), urlScheme == "http" || urlScheme == "https"
        else { return }
        base = url
    }

    /// The variant's text for the URL `bytes`, or `nil` when it is not
    /// rewritten: not `http`/`https` after resolving (`data:`, `#frag`,
    /// `javascript:`), relative without a base, not valid UTF-8, non-ASCII in
    /// its query (whose encoding would be the page's, unknown here), longer
    /// than ``maxURLBytes``, or refused by the rules. The text is read as a
    /// browser reads it (``Rewriter/rewrite(_:relativeTo:)``): tabs and
    /// newlines dropped, backslashes as `/`, dot segments resolved.
    func variant(for bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.count <= Self.maxURLBytes, let text = Self.text(of: bytes) else { return nil }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[bytes.startIndex..<colon].allSatisfy({ ASCII.isAlphanumeric($0) || $0 == 0x2B || $0 == 0x2D })
        {
            let written = String(decoding: bytes[bytes.startIndex..<colon].map(ASCII.lowercased), as: UTF8.self)
            guard written == "http" || written == "https" else { return nil }
        }
        guard let result = rewriter.rewrite(text, relativeTo: base), result.isRewritten,
            let resultScheme = result.url.scheme?.lowercased(), resultScheme == "http" || resultScheme == "https"
        else { return nil }
        var output = result.url.absoluteString
        // In the web view's scheme the page names the original: the scheme
        // handler's pipeline asks for the variant itself, under the same
        // cache key as the native views, and falls back to the original.
        if let scheme, let url = URL(whatwg: text, relativeTo: base), let custom = scheme.customURL(for: url) {
            output = custom.absoluteString
        }
        if let localPrefix, output.hasPrefix(localPrefix) {
            let rest = output.dropFirst(localPrefix.count)
            if rest.hasPrefix("/") { output = String(rest) }
        }
        return output
    }

    /// `bytes` as a string when they are valid UTF-8 with no control bytes
    /// but tabs and newlines (which a browser drops), and nothing but ASCII after a `?`.
    private static func text(of bytes: ArraySlice<UInt8>) -> String? {
        var inQuery = false
        var isASCII = true
        for byte in bytes {
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F { return nil }
            if byte == UInt8(ascii: "?") { inQuery = true }
            if byte >= 0x80 {
                if inQuery { return nil }
                isASCII = false
            }
        }
        if isASCII { return String(decoding: bytes, as: UTF8.self) }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// `bytes` without leading and trailing ASCII whitespace.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes[trimmedRange(bytes)]
    }

    /// The range of `bytes` without leading and trailing ASCII whitespace.
    static func trimmedRange(_ bytes: ArraySlice<UInt8>) -> Range<Int> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, ASCII.isWhitespace(bytes[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}
