/// Why the ``Rewriter`` changed a URL or left it alone, for logs and
/// `webp-bridge rewrite --explain`.
public struct RewriteReason: Sendable, Hashable, CustomStringConvertible {
    /// The kind of outcome.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A rule matched and its dialect produced the WebP variant.
        case rewritten
        /// The URL is not absolute or has no host.
        case notAbsolute
        /// No rule lists the URL's host.
        case noRuleForHost
        /// A rule lists the host but not the URL's scheme.
        case schemeNotMatched
        /// A rule lists the host but the path does not start with its prefix.
        case pathPrefixNotMatched
        /// The path does not name a JPEG or PNG (nor a GIF the rule opted in to).
        case notAnImage
        /// The path names a GIF and the rule does not convert GIFs.
        case gifNotEnabled
        /// The URL already asks for WebP (or lets the CDN negotiate it).
        case alreadyWebP
        /// The URL already asks for AVIF: only a client that shows AVIF can
        /// use it, and no bridge decodes it, so it is handed over untouched.
        case alreadyAVIF
        /// The URL carries a signature that a rewrite would break.
        case signed
        /// The dialect cannot express a WebP variant of this URL.
        case notRewritable
    }

    /// The kind of outcome.
    public let kind: Kind
    /// A short human-readable detail, e.g. `added format/webp to imageView2`.
    public let detail: String

    /// Creates a reason.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Whether the URL was rewritten.
    public var isRewritten: Bool { kind == .rewritten }

    /// `rewritten: added format/webp to imageView2`, `unchanged (signed): signed URL (s=)`.
    public var description: String {
        let label: String
        switch kind {
        case .rewritten: label = "rewritten"
        case .notAbsolute: label = "unchanged (not an absolute URL)"
        case .noRuleForHost: label = "unchanged (no rule for the host)"
        case .schemeNotMatched: label = "unchanged (scheme)"
        case .pathPrefixNotMatched: label = "unchanged (path prefix)"
        case .notAnImage: label = "unchanged (not an image)"
        case .gifNotEnabled: label = "unchanged (GIF)"
        case .alreadyWebP: label = "unchanged (already WebP)"
        case .alreadyAVIF: label = "unchanged (already AVIF)"
        case .signed: label = "unchanged (signed)"
        case .notRewritable: label = "unchanged (not rewritable)"
        }
        return detail.isEmpty ? label : "\(label): \(detail)"
    }
}
