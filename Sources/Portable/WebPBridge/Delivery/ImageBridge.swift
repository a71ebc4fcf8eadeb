public import Foundation

/// The image path of every bridge — the proxy, the URL protocol and the web
/// view's scheme bridge are thin adapters over it, so they cannot drift
/// apart.
///
/// One ``DeliveryRequest`` goes in; ``route(_:)`` plans it once (claim or
/// pass through; the rewrite, the client policy's decision and the cache
/// keys) into a ``DeliveryPlan`` that is carried down, never recomputed.
/// ``deliver(_:)`` walks the whole fallback ladder with it — the AVIF
/// variant, the WebP variant through the shared ``ImagePipeline`` (one
/// cache), the original — with one negative cache, the pipeline's,
/// transcodes on one bounded ``WorkQueue`` for clients that cannot show the
/// variant, and returns a finished ``Delivery``: the body with its fields
/// (`Content-Type`, `Vary`, cache fields, `ETag`), a 304 for a matching
/// `If-None-Match`, the original fetched and relayed, or the failure with
/// its status and text (``Delivery/answer``).
///
/// What it never does: deliver an answer worse than the upstream's. When the
/// pipeline gets no image but the upstream answered (a 404, an HTML page, a
/// body over the pipeline's limit, a redirect the rules do not allow), or
/// the bytes will not decode, or the upstream or the client forbids
/// transforming (`Cache-Control: no-transform`), or the image is larger
/// than ``Configuration/maxTranscodeInputBytes``, the client gets the
/// original as the upstream has it. And it never pays twice on the wire:
/// the client gets the transcode of the variant already fetched, never the
/// original as well.
///
/// Thread-safe: the pipeline and the queue guard their own state.
public final class ImageBridge: Sendable {
    /// The configuration the core was created with.
    public let configuration: Configuration
    /// Bounds transcoding: ``Configuration/transcodeConcurrency`` at once,
    /// ``Configuration/transcodeQueueLimit`` waiting, overloaded beyond.
    public let transcodeQueue: WorkQueue
    let transcoder: Transcoder
    /// The `Vary` of every answer on the image path (and of the originals
    /// other clients of a claimed URL get).
    public let vary: String
    /// Finished transcodes, by source version and client class.
    public let transcodes: TranscodeCache
    /// Requests routed and image requests planned so far (a test hook; one
    /// lock, uncontended).
    private let counts = Lock((routes: 0, plans: 0))
    /// The link's conditions as last reported (``update(_:)``), `nil` before any.
    let link = Lock<NetworkConditions?>(nil)

    /// Creates the core.
    /// - Throws: ``ImageBridgeError`` when the configuration breaks an invariant.
    public convenience init(configuration: Configuration) throws(ImageBridgeError) {
        try configuration.validate()
        self.init(validated: configuration)
    }

    /// Creates the core with the default queue and limits, which are valid.
    public convenience init(
        pipeline: ImagePipeline, clientPolicy: ClientPolicy = .standard,
        transcoder: Transcoder.Configuration = Transcoder.Configuration()
    ) {
        self.init(
            validated: Configuration(pipeline: pipeline, clientPolicy: clientPolicy, transcoder: transcoder))
    }

    private init(validated configuration: Configuration) {
        self.configuration = configuration
        transcodeQueue = WorkQueue(
            concurrency: configuration.transcodeConcurrency, queueLimit: configuration.transcodeQueueLimit)
        transcoder = Transcoder(
            codec: configuration.pipeline.configuration.codec, configuration: configuration.transcoder)
        var vary = configuration.clientPolicy.varyFields
        if configuration.forwardsClientHints {
            vary = VaryHeader.merging(ClientHints.sizingFieldNames.joined(separator: ", "), into: vary)
        }
        if configuration.forwardsSaveData { vary = VaryHeader.merging(ClientHints.saveDataFieldName, into: vary) }
        self.vary = vary
        transcodes = TranscodeCache(
            capacityBytes: configuration.transcodeCacheBytes,
            disk: configuration.pipeline.configuration.dataCache as? DiskCache, transcoder: configuration.transcoder)
    }

    /// The one rewriter: the pipeline's.
    public var rewriter: Rewriter? { configuration.pipeline.configuration.rewriter }

    /// How many requests ``route(_:)`` has routed, whichever way: each
    /// request routed once counts one. A test hook.
    package var routeCount: Int { counts.withLock { $0.routes } }

    /// How many ``DeliveryPlan``s ``route(_:)`` has made: each image
    /// request planned once and carried down counts one. A test hook.
    package var planCount: Int { counts.withLock { $0.plans } }

    // MARK: Planning

    /// Where `request` goes, planned once without waiting: the image path
    /// for a `GET` or `HEAD` whose URL a rule rewrites (or that asks for
    /// WebP or AVIF already) and whose client the policy claims, unless the
    /// client forbids transforming; otherwise passed through — with
    /// ``vary`` when the URL is one other clients get transformed.
    public func route(_ request: DeliveryRequest) -> DeliveryRoute {
        counts.withLock { $0.routes += 1 }
        var request = request
        request.image = configuration.linkPolicy.request(request.image, at: linkTier)
        if configuration.forwardsSaveData, !request.image.savesData {
            request.image.savesData = ClientHints.savesData(request.fields)
        }
        if request.image.widthHint == nil { request.image.widthHint = widthHint(request.fields) }
        guard request.method == "GET" || request.method == "HEAD", let rewriter else {
            return .passThrough(vary: nil)
        }
        let rewrite = rewriter.rewrite(request.url)
        let client = Self.client(of: request)
        let policy = configuration.clientPolicy
        guard rewrite.isRewritten || rewrite.reason.kind == .alreadyWebP || rewrite.reason.kind == .alreadyAVIF
        else {
            // A URL on a host the rules name, left as it is (a GIF the rule does not convert, a path
            // outside its prefix): an upstream that negotiates must not answer it in a format this
            // client cannot show.
            return .passThrough(
                vary: nil, upstreamAccept: rewrite.ruleName == nil ? nil : policy.upstreamAccept(for: client))
        }
        let decision = policy.decision(for: client, rewrite: rewrite)
        if case .passThrough = decision { return .passThrough(vary: vary) }
        if CacheControl.containsNoTransform(request.cacheControl) {
            return .passThrough(vary: vary, upstreamAccept: policy.upstreamAccept(for: client))
        }
        var plan = DeliveryPlan(
            request: request, rewrite: rewrite, decision: decision,
            fetch: RequestPlan(request: request.image, rewrite: rewrite))
        if case .serveVariant(let url, let format) = decision, format != .webp {
            let variant = rewrite.variants.first { $0.url == url && $0.format == format }
            plan.otherFormat = DeliveryPlan.OtherFormat(
                format: format,
                fetch: variant.map { RequestPlan(fetching: $0, for: request.image) }
                    ?? RequestPlan(request: request.image.with(url: url), rewrite: nil),
                fallback: policy.decision(for: client, rewrite: rewrite, excluding: [format]))
        }
        if plan.namesAVIF {
            plan.counterpart = rewrite.variants.first { $0.format == .webp }.map {
                RequestPlan(fetching: $0, for: request.image)
            }
        }
        counts.withLock { $0.plans += 1 }
        return .image(plan)
    }

    /// Whether a page (HTML) answered to `request` may name the variants
    /// instead of the originals: a `GET` or `HEAD` without `no-transform`
    /// from a client whose images the policy serves variants to (as they
    /// are or transcoded, since they come back through a bridge). The
    /// proxy's `--rewrite-html` asks this; such pages carry ``vary``.
    public func rewritesPage(_ request: DeliveryRequest) -> Bool {
        guard request.method == "GET" || request.method == "HEAD", rewriter != nil,
            !CacheControl.containsNoTransform(request.cacheControl)
        else { return false }
        return configuration.clientPolicy.servesVariants(to: Self.client(of: request))
    }

    /// Whether a rule names `url`'s host (and scheme): such a URL may be
    /// fetched as it is even when no rule rewrites it (the web view's
    /// scheme bridge fetches nothing else).
    public func namesHost(_ url: URL) -> Bool {
        guard let rewriter else { return false }
        switch rewriter.rewrite(url).reason.kind {
        case .noRuleForHost, .notAbsolute, .schemeNotMatched: return false
        default: return true
        }
    }

    /// The client as the policy sees it, its device class guessed from its
    /// `User-Agent` unless given.
    private static func client(of request: DeliveryRequest) -> ClientRequest {
        ClientRequest(
            url: request.url, userAgent: request.userAgent, accept: request.accept,
            deviceClass: request.deviceClass ?? DeviceClass.guessed(fromUserAgent: request.userAgent))
    }
}

extension ClientDecision {
    /// Whether the client is to get WebP (rather than AVIF, a transcode or the original).
    public var servesWebP: Bool { servedFormat == .webp }
}
