public import Foundation

/// What ``Rewriter/rewrite(_:)`` made of one URL.
public struct RewriteResult: Sendable, Hashable {
    /// The WebP variant, or the input URL itself (the same value) when unchanged.
    public let url: URL
    /// The cache key: ``url`` normalised (scheme and host lower-cased, default
    /// port and fragment dropped), so that equal resources share one entry.
    public let cacheKey: String
    /// The name of the rule that matched the host, if any.
    public let ruleName: String?
    /// Why the URL was or was not rewritten.
    public let reason: RewriteReason

    /// Whether ``url`` is a rewritten variant.
    public var isRewritten: Bool { reason.isRewritten }

    /// Creates a result (for tests and custom rewriters).
    public init(url: URL, cacheKey: String, ruleName: String?, reason: RewriteReason) {
        self.url = url
        self.cacheKey = cacheKey
        self.ruleName = ruleName
        self.reason = reason
    }
}
