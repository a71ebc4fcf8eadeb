/// One image request planned once by ``ImageBridge/route(_:)``: the
/// rewriter's result, the client policy's decision and the pipeline's cache
/// keys, carried down to the answer so nothing below routes, rewrites or
/// decides again.
public struct DeliveryPlan: Sendable, Equatable {
    /// The request as the adapter built it.
    public var request: DeliveryRequest
    /// The rewriter's result for the request's URL: the WebP variant, the
    /// other formats' variants, or why the URL stays (it names WebP or AVIF
    /// already).
    public var rewrite: RewriteResult
    /// What the client gets, as the policy decided.
    public var decision: ClientDecision
    /// The pipeline's plan for the request's URL: the WebP variant (when
    /// rewritten) falling back to the original, and their cache keys.
    public var fetch: RequestPlan
    /// When the client is served a variant in another format (AVIF): that
    /// variant's own plan (its key is the URL fetched), and what the policy
    /// decides without that format, should it fail.
    public var otherFormat: OtherFormat?
    /// When the URL names an AVIF variant itself and the client is not
    /// served AVIF: the plan of its WebP counterpart, fetched first.
    public var counterpart: RequestPlan?

    /// A variant in a format other than WebP, and the ladder's next rung.
    public struct OtherFormat: Sendable, Equatable {
        /// The variant's format.
        public var format: VariantFormat
        /// Its fetch, under its own key.
        public var fetch: RequestPlan
        /// The policy's decision without ``format``: the WebP variant for a
        /// client that shows WebP, else the transcode (or the original).
        public var fallback: ClientDecision
    }

    /// Whether the URL the client named is itself an AVIF variant.
    public var namesAVIF: Bool { rewrite.reason.kind == .alreadyAVIF }
}
