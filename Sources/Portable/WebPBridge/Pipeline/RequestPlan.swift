public import Foundation

/// How the pipeline will serve one ``ImageRequest``: planned once, from the
/// rewriter's result, and carried down to the fetch and the decode with the
/// request's options.
public struct RequestPlan: Sendable, Equatable {
    /// The request as the caller built it; its URL is the original.
    public var request: ImageRequest
    /// The WebP variant to fetch, or `nil` when no rule rewrites the URL.
    public var variantURL: URL?
    /// The key of the bytes every client gets for the URL fetched (the
    /// variant's, normalised): ``cacheKey`` unless the request saves data.
    public var fullAnswerKey: String

    /// Creates a plan from its parts; `cacheKey` is the key of the URL
    /// fetched (``fullAnswerKey``).
    public init(request: ImageRequest, variantURL: URL?, cacheKey: String) {
        self.request = request
        self.variantURL = variantURL
        fullAnswerKey = cacheKey
    }

    /// The plan for `request` given the rewriter's result for its URL
    /// (`nil`: no rewriter): the variant when rewritten, under the result's key.
    public init(request: ImageRequest, rewrite: RewriteResult?) {
        guard let rewrite else {
            self.init(request: request, variantURL: nil, cacheKey: Rewriter.normalizedCacheKey(for: request.url))
            return
        }
        self.init(request: request, variantURL: rewrite.isRewritten ? rewrite.url : nil, cacheKey: rewrite.cacheKey)
    }

    /// The plan that fetches `variant` as it is, under its own key (an AVIF
    /// variant, or the WebP counterpart a page's AVIF URL names), with the
    /// options of `request`.
    public init(fetching variant: FormatVariant, for request: ImageRequest) {
        self.init(request: request.with(url: variant.url), variantURL: nil, cacheKey: variant.cacheKey)
    }

    /// The key under which the data cache keeps the bytes, and the memory
    /// cache the image decoded whole: ``fullAnswerKey``, marked when the
    /// request asks for less (``ImageRequest/asksForLess``: its width
    /// bucket, `Save-Data`), whose answer may be smaller and worse. A space
    /// cannot occur in a normalised URL, so a marked key is no URL's.
    public var cacheKey: String { Self.key(fullAnswerKey, for: request) }

    /// For a request that asks for less, the key whose fresh entry answers
    /// it too (``fullAnswerKey``: bytes already here cost nothing on the
    /// wire); `nil` otherwise.
    public var standInKey: String? { request.asksForLess ? fullAnswerKey : nil }

    /// The URL the caller asked for.
    public var originalURL: URL { request.url }

    /// The key of the original's bytes, used after a fallback: ``cacheKey``
    /// when nothing was rewritten, else ``originalURL`` normalised (marked
    /// like ``cacheKey`` when the request asks for less) — computed
    /// when asked: only a fallback or an eviction needs it, and a memory hit
    /// need not parse the URL a second time.
    public var originalCacheKey: String {
        variantURL == nil
            ? cacheKey : Self.key(Rewriter.normalizedCacheKey(for: originalURL), for: request)
    }

    /// ``standInKey`` for the original, after a fallback.
    public var originalStandInKey: String? {
        guard request.asksForLess else { return nil }
        return variantURL == nil ? fullAnswerKey : Rewriter.normalizedCacheKey(for: originalURL)
    }

    private static func key(_ key: String, for request: ImageRequest) -> String {
        var key = key
        if let bucket = request.widthHintBucket { key += " w\(bucket)" }
        if request.savesData { key += " save-data" }
        return key
    }

    /// The memory cache's key for the decoded image: ``cacheKey``, with the
    /// request's ``ImageRequest/targetSize`` when it has one, so that a
    /// thumbnail and the whole image never stand in for each other. A
    /// space cannot occur in a normalised URL, and a size has none, so no
    /// URL's key can collide.
    public var imageCacheKey: String {
        guard let size = request.targetSize else { return cacheKey }
        return cacheKey + " " + size.description
    }

    /// The key concurrent fetches of this plan share: callers share a fetch
    /// only when it would deliver each of them what they asked for (the
    /// same bytes, the same redirect handling, the same use of the caches).
    var fetchKey: String { cacheKey + optionsSuffix }

    /// The key concurrent decodes of this plan share: as ``fetchKey``, at
    /// the request's target size.
    var imageFetchKey: String { imageCacheKey + optionsSuffix }

    private var optionsSuffix: String {
        switch (request.redirects, request.cachePolicy) {
        case (.follow, .useCache): ""
        case (.follow, let policy): " \(policy)"
        case (.report, let policy): " report \(policy)"
        }
    }
}
