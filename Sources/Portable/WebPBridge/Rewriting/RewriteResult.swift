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
    /// When rewritten (or already the WebP variant, under a rule that lists
    /// more formats): the variant of each format the rule lists, in the
    /// rule's preference order (WebP's is ``url``); empty otherwise.
    public let variants: [FormatVariant]

    /// Whether ``url`` is a rewritten variant.
    public var isRewritten: Bool { reason.isRewritten }

    /// Creates a result (for tests and custom rewriters).
    public init(
        url: URL, cacheKey: String, ruleName: String?, reason: RewriteReason, variants: [FormatVariant] = []
    ) {
        self.url = url
        self.cacheKey = cacheKey
        self.ruleName = ruleName
        self.reason = reason
        self.variants = variants
    }

    /// The variant in `format`, if the rule lists it and could express it.
    public func variant(_ format: VariantFormat) -> FormatVariant? {
        variants.first { $0.format == format }
    }
}

/// One format's variant of a rewritten URL.
public struct FormatVariant: Sendable, Hashable {
    /// Its format.
    public let format: VariantFormat
    /// The URL that asks the CDN for it.
    public let url: URL
    /// The URL normalised: the variant's own cache key, so that formats never share an entry.
    public let cacheKey: String

    /// Creates a variant (for tests and custom rewriters).
    public init(format: VariantFormat, url: URL, cacheKey: String) {
        self.format = format
        self.url = url
        self.cacheKey = cacheKey
    }
}
