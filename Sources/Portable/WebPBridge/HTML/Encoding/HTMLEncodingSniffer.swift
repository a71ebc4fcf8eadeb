/// The HTML standard's encoding sniffing (§13.2.3.2), as far as it can be
/// done on bytes before any are decoded: a byte order mark, then the
/// transport layer's `charset` (the `Content-Type` parameter), then the
/// `<meta charset>` / `<meta http-equiv=content-type content=…>` prescan
/// of the first 1,024 bytes (§13.2.3.3). What a browser would do after
/// that (the parent frame's encoding, frequency analysis, the locale's
/// default) is left out: every such outcome is ASCII-compatible, and only
/// that matters to the rewriter, which rewrites a page only when
/// ``HTMLEncoding/isASCIICompatible``.
public enum HTMLEncodingSniffer {
    /// Where the encoding came from.
    public enum Source: Sendable, Hashable {
        case byteOrderMark
        case transportLayer
        case meta
        /// Nothing said: a browser goes on guessing among ASCII-compatible encodings.
        case undetermined
    }

    /// The encoding found and where, or `nil` (with ``Source/undetermined``).
    public struct Result: Sendable, Hashable {
        public var encoding: HTMLEncoding?
        public var source: Source

        /// Whether markup can be read byte by byte: an undetermined encoding
        /// is one of the ASCII-compatible ones a browser would pick.
        public var isASCIICompatible: Bool { encoding?.isASCIICompatible ?? true }
    }

    /// How many bytes the prescan reads.
    public static let prescanBytes = 1_024

    /// Sniffs the encoding of a page from its first bytes.
    /// - Parameters:
    ///   - prefix: The page's first bytes (at least ``prescanBytes`` of them,
    ///     or the whole page when shorter); later bytes are ignored.
    ///   - charset: The transport layer's `charset` label, if any (see
    ///     ``charset(ofContentType:)``); an unknown label is ignored.
    public static func sniff(_ prefix: some Collection<UInt8>, charset: String?) -> Result {
        let head = Array(prefix.prefix(prescanBytes))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return Result(encoding: .utf8, source: .byteOrderMark) }
        if head.starts(with: [0xFE, 0xFF]) { return Result(encoding: .utf16BE, source: .byteOrderMark) }
        if head.starts(with: [0xFF, 0xFE]) { return Result(encoding: .utf16LE, source: .byteOrderMark) }
        if let charset, let encoding = HTMLEncoding(label: charset) {
            return Result(encoding: encoding, source: .transportLayer)
        }
        var prescan = MetaPrescan(head)
        if let encoding = prescan.run() { return Result(encoding: encoding, source: .meta) }
        return Result(encoding: nil, source: .undetermined)
    }

    /// Whether a stream has seen enough of a page to sniff it: the whole
    /// prescan window, or (with a known transport charset) the three bytes
    /// a byte order mark can take.
    static func canDecide(after count: Int, charset: String?) -> Bool {
        count >= prescanBytes || (count >= 3 && charset.flatMap { HTMLEncoding(label: $0) } != nil)
    }

    /// The `charset` parameter of a `Content-Type` value, unquoted, or `nil`.
    public static func charset(ofContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingASCIIWhitespace()
            guard name.lowercased() == "charset" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingASCIIWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        var trimmed = self.drop(while: isSpace)
        while let last = trimmed.last, isSpace(last) { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
