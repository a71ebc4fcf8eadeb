import Foundation
public import HTTPServer
public import WebPBridge

/// The out-of-process bridge: an HTTP proxy that gives any consumer — a
/// WebView, a browser, a device — the bytes-saving WebP path without
/// changing it.
///
/// Image requests that a rewrite rule matches and the ``ClientPolicy``
/// claims go through the shared ``ImagePipeline`` (WebP variant, one cache,
/// fallback to the original) and reach the client as WebP when it shows
/// WebP, else as the ``Transcoder``'s JPEG, PNG or APNG. Everything else —
/// HTML, CSS, scripts, GIFs, other methods — passes through unchanged but
/// for hop-by-hop headers and `Via`. `/__bridge/healthz` and
/// `/__bridge/metrics` answer locally.
///
/// A handler: ``handle(_:)`` takes a request value and returns a response
/// value, so tests call it without sockets; serve it with ``HTTPServer``
/// (allowing `CONNECT` among its methods, so the bridge can say why it
/// refuses it). Thread-safe: the pipeline, the transcode queue and the
/// metrics each guard their own state.
public final class BridgeProxy: HTTPHandler {
    /// The configuration the bridge was created with.
    public let configuration: Configuration
    /// Counters and histograms served at `/__bridge/metrics`.
    public let metrics = MetricsRegistry()
    /// The image path (shared with the URL protocol): claims, fetches,
    /// transcodes on its bounded queue and says what to deliver.
    public let imageBridge: ImageBridge
    /// Bounds transcoding: ``Configuration/transcodeConcurrency`` at once,
    /// ``Configuration/transcodeQueueLimit`` waiting, 503 beyond. Public so
    /// an embedding app (or a test) can watch its load.
    public var transcodeQueue: WorkQueue { imageBridge.transcodeQueue }

    let router: RequestRouter
    let via: ViaHeader
    let redirects: RedirectLocation?
    /// Ready answers to repeated cache hits (see ``HitMemo``).
    let hitMemo: HitMemo
    /// The series a hit counts (see ``HotCounters``).
    let hotCounters: HotCounters
    /// The rewrite of pages under ``Configuration/rewritesHTML``; `nil` when
    /// it is off or the bridge has no rules.
    /// `--rewrite-html`'s queue and kept results; `nil` without it.
    let rewrittenPages: RewrittenPages?
    /// Routes (image requests planned) the immediate path declined, for ``handle(_:)``.
    let plannedRequests: PlannedRequests
    /// Passed-through answers being sent (see ``HeldAnswers``).
    let heldAnswers: HeldAnswers

    /// The path prefix of the bridge's own endpoints.
    public static let localPathPrefix = "/__bridge/"

    /// Creates a bridge.
    /// - Parameter configuration: Mode, pipeline, policy, loaders and limits.
    /// - Throws: ``BridgeProxyError`` when the configuration breaks an
    ///   invariant (see ``Configuration/validate()``).
    public init(configuration: Configuration) throws(BridgeProxyError) {
        try configuration.validate()
        self.configuration = configuration
        do {
            imageBridge = try ImageBridge(configuration: configuration.imageBridgeConfiguration)
        } catch {
            throw .invalidConfiguration(error.description)
        }
        router = RequestRouter(mode: configuration.mode, rewriter: configuration.pipeline.configuration.rewriter)
        via = ViaHeader(token: configuration.viaToken)
        redirects = router.reversePrefix.map(RedirectLocation.init(upstreamPrefix:))
        hitMemo = HitMemo(capacityBytes: configuration.memoryBudget.hitMemoBytes)
        plannedRequests = PlannedRequests(capacityBytes: configuration.memoryBudget.plannedRequestsBytes)
        heldAnswers = HeldAnswers(capacityBytes: configuration.memoryBudget.passthroughBodyBytes)
        rewrittenPages = Self.pageRewriting(for: configuration).map { rewriting in
            RewrittenPages(
                rewriting: rewriting, concurrency: configuration.limits.pageRewriteConcurrency,
                queueLimit: configuration.limits.pageRewriteQueueLimit,
                capacityBytes: configuration.memoryBudget.rewrittenPagesBytes)
        }
        // Registered first, so /metrics lists the families in the order it always has.
        Self.registerMetrics(in: metrics, rewritesPages: rewrittenPages != nil)
        hotCounters = HotCounters(metrics)
    }

    /// A response and how it came about, for the metrics.
    struct Reply: Sendable {
        var response: HTTPResponse
        var outcome: Outcome
        /// Body bytes received from the upstream to answer this request
        /// (variant, original, or both after a fallback); `nil` when the
        /// bridge answered without asking the upstream.
        var upstreamBytes: Int?
    }

    /// Answers one request: locally, from the image path, or by passing it
    /// through. Never throws and never hangs beyond the upstream timeouts:
    /// failures become 4xx/5xx responses with a one-line reason.
    /// - Parameter request: The request as received.
    /// - Returns: The response, with the bridge's `Via` entry.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let reply: Reply
        // Planned once: on the immediate path when it looked in the cache first.
        let route = plannedRequests.take(for: request) ?? route(request)
        switch route {
        case .ready(let ready): reply = ready
        case .passThrough(let url, let vary, let facts, let upstreamAccept):
            if rewrittenPages == nil {
                reply = await passThrough(request, url: url, vary: vary, upstreamAccept: upstreamAccept)
            } else {
                // Decided once per request: whether this client's page names the variants.
                let forClient = imageBridge.rewritesPage(facts)
                let asksIdentity = forClient && PageRewriting.asksForAPage(facts.accept)
                let passed = await passThrough(
                    request, url: url, vary: vary, asksIdentity: asksIdentity, upstreamAccept: upstreamAccept)
                reply = await rewritingPage(
                    passed, for: request, forClient: forClient, asksIdentity: asksIdentity, url: url)
            }
        case .image(let plan):
            let (served, image) = await serveImage(request, plan: plan)
            // A transcode of a data-cache entry is this client's ready answer next time, as a WebP hit is.
            if served.outcome == .transcoded, configuration.keepsTranscodes, let image, !image.isFallback,
                let memoKey = memoKey(for: request)
            {
                let kept = hitMemo.insert(stamped(served), image: image, for: memoKey)
                record(kept.reply, isHEAD: request.method == .head)
                return kept.response
            }
            reply = served
        }
        return finish(reply, for: request)
    }

    /// The ``HitMemo`` key of `request` as the core plans it now, or `nil`
    /// when answers are not memoised: the pipeline keeps no data, or the
    /// request takes the full path.
    private func memoKey(for request: HTTPRequest) -> String? {
        pipelineKeepsData ? HitMemo.key(for: request, planning: imageBridge) : nil
    }

    /// Answers on the server's own thread what needs no waiting: the local
    /// endpoints, refusals, and an image the pipeline's data cache holds
    /// fresh for a client that shows it as it is (no transcoding). Anything
    /// else is left to ``handle(_:)``.
    /// - Parameter request: The request as received.
    /// - Returns: The response, or `nil` to answer asynchronously.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let pipeline = configuration.pipeline
        let memoKey = memoKey(for: request)
        if let memoKey, let cache = pipeline.configuration.dataCache,
            let hit = hitMemo.hit(for: memoKey, in: cache, now: pipeline.configuration.now())
        {
            pipeline.recordCachedDelivery(of: hit.image, bytes: hit.imageBytes)
            recordImageSource(hit.image.source)
            // Kept as sent: stamped already, and prepared.
            record(hit.reply, isHEAD: request.method == .head)
            return hit.response
        }
        switch route(request) {
        case .ready(let reply):
            return finish(reply, for: request)
        case .image(let plan):
            guard let (reply, image) = cachedImageReply(request, plan: plan) else {
                plannedRequests.keep(.image(plan), for: request)
                return nil
            }
            guard let memoKey, !image.isFallback else { return finish(reply, for: request) }
            // The memo's copy of the body, sent from here on without copying.
            let kept = hitMemo.insert(stamped(reply), image: image, for: memoKey)
            record(kept.reply, isHEAD: request.method == .head)
            return kept.response
        case .passThrough(let url, let vary, let facts, let upstreamAccept):
            plannedRequests.keep(.passThrough(url, vary: vary, facts, upstreamAccept: upstreamAccept), for: request)
            return nil
        }
    }

    /// Whether the pipeline has a data cache, which the hit memo's answers are checked against.
    private var pipelineKeepsData: Bool { configuration.pipeline.configuration.dataCache != nil }

    /// Stamps `Via` and the upstream cost on `reply` and records it.
    private func finish(_ reply: Reply, for request: HTTPRequest) -> HTTPResponse {
        let reply = stamped(reply)
        record(reply, isHEAD: request.method == .head)
        return reply.response
    }

    /// `reply` with `Via` and the upstream cost stamped on it.
    private func stamped(_ reply: Reply) -> Reply {
        var reply = reply
        if reply.outcome != .local {
            reply.response.headers["Via"] = via.appended(
                to: reply.response.headers.values(for: "Via").joined(separator: ", ")
                    .nilIfEmpty)
        }
        if let upstreamBytes = reply.upstreamBytes {
            reply.response.headers[BridgeDiagnosticHeader.wireBytes] = String(upstreamBytes)
        }
        return reply
    }

    /// Where a request goes, decided without waiting.
    enum Route: Sendable {
        /// Answered already: a local endpoint or a refusal.
        case ready(Reply)
        /// Forwarded unchanged, with `vary` merged into the response's `Vary`
        /// (and, for a page, rewritten as ``rewritingPage(_:for:forClient:asksIdentity:url:)`` says).
        /// `upstreamAccept`: the core's replacement for the request's `Accept` upstream, if any.
        case passThrough(URL, vary: String?, DeliveryRequest, upstreamAccept: String?)
        /// The image path, for a client the policy claims, planned.
        case image(DeliveryPlan)
    }

    func route(_ request: HTTPRequest) -> Route {
        if request.target.hasPrefix(Self.localPathPrefix) { return .ready(serveLocal(request)) }
        if via.isLoop(request.headers.values(for: "Via")) {
            return .ready(
                refusal(
                    508,
                    "loop detected: this request has already passed through \(via.token) (Via); "
                        + "check that the upstream is not the bridge itself", outcome: .loop))
        }
        if request.method == .connect {
            return .ready(
                refusal(
                    .notImplemented,
                    "CONNECT is not supported: the bridge does not tunnel HTTPS; "
                        + "start it with --upstream https://… so that it talks HTTPS to the site itself"))
        }
        let url: URL
        switch router.route(request) {
        case .upstream(let routed): url = routed
        case .refused(let status, let reason): return .ready(refusal(status, reason))
        }
        var fields = request.headers
        // The original the core may relay carries the bridge's Via entry, as every passthrough does.
        fields["Via"] = via.appended(
            to: request.headers.values(for: "Via").joined(separator: ", ").nilIfEmpty,
            protocolVersion: request.version)
        let facts = DeliveryRequest(method: request.method.rawValue, url: url, fields: fields)
        switch imageBridge.route(facts) {
        case .passThrough(let vary, let upstreamAccept):
            return .passThrough(url, vary: vary, facts, upstreamAccept: upstreamAccept)
        case .image(let plan): return .image(plan)
        }
    }

    private func serveLocal(_ request: HTTPRequest) -> Reply {
        switch request.path {
        case Self.localPathPrefix + "healthz":
            return Reply(response: .text(.ok, "ok"), outcome: .local)
        case Self.localPathPrefix + "metrics":
            return Reply(
                response: .data(Data(renderMetrics().utf8), contentType: MetricsRegistry.contentType), outcome: .local)
        default:
            return Reply(
                response: .text(
                    .notFound, "the bridge serves \(Self.localPathPrefix)healthz and \(Self.localPathPrefix)metrics"),
                outcome: .local)
        }
    }

    func refusal(_ status: HTTPStatus, _ reason: String, outcome: Outcome = .refused) -> Reply {
        Reply(response: .text(status, reason), outcome: outcome)
    }

    /// The page rewrite `configuration` asks for, with the bridge's rules and
    /// limit; in reverse mode variants on the upstream come back through the bridge.
    private static func pageRewriting(for configuration: Configuration) -> PageRewriting? {
        guard configuration.rewritesHTML, let rewriter = configuration.pipeline.configuration.rewriter else {
            return nil
        }
        var localPrefix: String?
        if case .reverse(let upstream) = configuration.mode {
            localPrefix = PageRewriting.localPrefix(forUpstream: upstream)
        }
        return PageRewriting(
            rewriter: rewriter, localPrefix: localPrefix, maxBodyBytes: configuration.limits.maxPassthroughBodyBytes)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension BridgeProxy {
    /// Routes the immediate path kept for `handle` that no request has taken
    /// yet (a test hook: 0 once every declined request was answered).
    package var plannedRequestCount: Int { plannedRequests.count }
}
