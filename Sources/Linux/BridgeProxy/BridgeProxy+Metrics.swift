import HTTPServer
import WebPBridge

extension BridgeProxy {
    /// How a request ended, the label of `webpbridge_proxy_requests_total`.
    enum Outcome: String, CaseIterable, Sendable {
        /// The WebP variant, to a client that shows WebP.
        case webp
        /// The AVIF variant, to a client that names `image/avif`.
        case avif
        /// The variant, decoded and re-encoded as JPEG, PNG or APNG.
        case transcoded
        /// Image bytes the client can show as they are (a JPEG that the CDN
        /// answered with `ignore-error/1`, a GIF), delivered untouched.
        case untouched
        /// The variant failed; the original was delivered (as is or transcoded).
        case fallback
        /// Not a claimed image (or `no-transform`, or too large): the
        /// upstream's answer, unchanged.
        case passthrough
        /// The client's `If-None-Match` matched: 304.
        case notModified = "not_modified"
        /// 400, 403, 404 or 501: the request was not one the bridge serves.
        case refused
        /// 508: the request had already passed this bridge.
        case loop
        /// 503: the transcode queue was full.
        case overloaded
        /// 502: the upstream could not be reached, timed out or was too large.
        case error
        /// The client went away before the answer (its task was cancelled).
        case cancelled
        /// `/__bridge/healthz` and `/__bridge/metrics`.
        case local

        /// The proxy's name for how the image path ended.
        init(_ outcome: Delivery.Outcome) {
            switch outcome {
            case .webp: self = .webp
            case .avif: self = .avif
            case .transcoded: self = .transcoded
            case .untouched: self = .untouched
            case .fallback: self = .fallback
            case .notModified: self = .notModified
            case .original, .redirect: self = .passthrough
            case .overloaded: self = .overloaded
            case .cancelled: self = .cancelled
            case .upstreamFailure: self = .error
            }
        }
    }

    static let requestsFamily = MetricsRegistry.Family(
        "webpbridge_proxy_requests_total", help: "Requests answered, by outcome.")
    static let upstreamBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_upstream_bytes_total",
        help: "Body bytes received from upstream, by path (image fetches through the pipeline; passthrough).")
    static let clientBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_client_bytes_total", help: "Body bytes sent to clients (0 for HEAD), by path.")
    static let originalBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_original_bytes_total",
        help: "Sizes of original images the bridge actually fetched (fallbacks, no-transform and oversized "
            + "passthroughs); originals it never fetched are not counted, so this is not a savings figure.")
    static let imageSourceFamily = MetricsRegistry.Family(
        "webpbridge_proxy_image_source_total",
        help: "Images served by the pipeline, by where the bytes came from (memory, disk, revalidated, network).")
    static let htmlPagesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_html_pages_total",
        help: "text/html answers under --rewrite-html, by outcome: rewritten, or why untouched "
            + "(status, encoding, no-transform, client, size, changed).")
    static let htmlURLsFamily = MetricsRegistry.Family(
        "webpbridge_proxy_html_rewritten_urls_total", help: "Image URLs rewritten to their variants in pages.")
    static let transcodeSecondsFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_seconds", help: "Time to decode and re-encode one image, without the queue wait.")
    static let transcodeRunningFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcodes_running", help: "Transcodes running now.")
    static let transcodeWaitingFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcodes_waiting", help: "Transcodes waiting for a core now.")

    static let dataCacheBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_data_cache_bytes",
        help: "Bytes held by the in-memory data cache, keys and metadata included (0 with a disk cache).")
    static let hitMemoBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_hit_memo_bytes", help: "Bytes held by the memo of ready answers, keys included.")
    static let failedVariantsBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_failed_variants_bytes",
        help: "Bytes held by the one negative cache of failed variants (AVIF and WebP), keys included.")
    static let failedVariantsEntriesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_failed_variants_entries",
        help: "Variants in the negative cache now (AVIF and WebP; expired ones until dropped).")
    static let failedVariantsHitsFamily = MetricsRegistry.Family(
        "webpbridge_proxy_failed_variants_hits",
        help: "Variant fetches skipped since start because the negative cache held a recent failure.")
    static let rewrittenPagesBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_rewritten_pages_bytes",
        help: "Bytes held by the rewritten pages kept for the next client (--rewrite-html), keys included.")
    static let transcodeCacheBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_cache_bytes",
        help: "Bytes held by the finished transcodes kept in memory, keys and metadata included.")
    static let transcodeCacheEntriesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_cache_entries", help: "Finished transcodes kept in memory.")
    static let transcodeCacheMemoryHitsFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_cache_memory_hits",
        help: "Answers given from a finished transcode kept in memory, since start.")
    static let transcodeCacheDiskHitsFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_cache_disk_hits",
        help: "Answers given from a finished transcode kept on the disk cache, since start.")
    static let transcodeCacheMissesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_cache_misses",
        help: "Transcodes run because none was kept for the image's version and the client's formats, since start.")
    static let transcodeCacheJoinedFamily = MetricsRegistry.Family(
        "webpbridge_proxy_transcode_cache_joined",
        help: "Answers that waited for the same transcode another request had started, since start.")
    static let memoryBudgetFamily = MetricsRegistry.Family(
        "webpbridge_proxy_memory_budget_bytes", help: "The configured memory budget the caches are shares of.")
    static let residentBytesFamily = MetricsRegistry.Family(
        "webpbridge_proxy_resident_bytes", help: "Resident memory of the process (VmRSS; Linux only).")

    /// Where bytes went, the label of the byte counters.
    enum Path: String, Sendable {
        case image
        case passthrough
    }

    /// Creates every counter at zero, so a scrape sees each family before
    /// the first request.
    static func registerMetrics(in metrics: MetricsRegistry, rewritesPages: Bool) {
        for outcome in Outcome.allCases {
            metrics.increment(Self.requestsFamily, labels: "outcome=\"\(outcome.rawValue)\"", by: 0)
        }
        for path in [Path.image, .passthrough] {
            metrics.increment(Self.upstreamBytesFamily, labels: "path=\"\(path.rawValue)\"", by: 0)
            metrics.increment(Self.clientBytesFamily, labels: "path=\"\(path.rawValue)\"", by: 0)
        }
        metrics.increment(Self.originalBytesFamily, by: 0)
        if rewritesPages {
            metrics.increment(Self.htmlPagesFamily, labels: "outcome=\"rewritten\"", by: 0)
            for reason in PageRewriting.Untouched.allCases {
                metrics.increment(Self.htmlPagesFamily, labels: "outcome=\"\(reason.rawValue)\"", by: 0)
            }
            metrics.increment(Self.htmlURLsFamily, by: 0)
        }
        for source in [ImageSource.memory, .disk, .revalidated, .network] {
            metrics.increment(Self.imageSourceFamily, labels: "source=\"\(source.rawValue)\"", by: 0)
        }
    }

    func recordUpstreamBytes(_ bytes: Int, path: Path) {
        metrics.increment(Self.upstreamBytesFamily, labels: "path=\"\(path.rawValue)\"", by: Double(bytes))
    }

    func recordOriginalBytes(_ bytes: Int) {
        metrics.increment(Self.originalBytesFamily, by: Double(bytes))
    }

    func recordImageSource(_ source: ImageSource) {
        if let counter = hotCounters.sources[source] {
            counter.increment()
        } else {
            metrics.increment(Self.imageSourceFamily, labels: "source=\"\(source.rawValue)\"")
        }
    }

    func recordRewrittenPage(urls: Int) {
        metrics.increment(Self.htmlPagesFamily, labels: "outcome=\"rewritten\"")
        metrics.increment(Self.htmlURLsFamily, by: Double(urls))
    }

    func recordUntouchedPage(_ reason: PageRewriting.Untouched) {
        metrics.increment(Self.htmlPagesFamily, labels: "outcome=\"\(reason.rawValue)\"")
    }

    func recordTranscode(seconds: Double) {
        metrics.observe(Self.transcodeSecondsFamily, seconds)
    }

    /// Counts a finished request and the bytes it sends.
    func record(_ reply: Reply, isHEAD: Bool) {
        if reply.outcome == .webp {
            hotCounters.webpRequests.increment()
        } else if reply.outcome == .transcoded {
            hotCounters.transcodedRequests.increment()
        } else {
            metrics.increment(Self.requestsFamily, labels: "outcome=\"\(reply.outcome.rawValue)\"")
        }
        guard !isHEAD else { return }
        let bytes: Int
        switch reply.response.body {
        case .data(let data): bytes = data.count
        case .bytes(let body): bytes = body.count
        case .empty, .file: return
        }
        if reply.outcome == .passthrough {
            metrics.increment(
                Self.clientBytesFamily, labels: "path=\"\(Path.passthrough.rawValue)\"", by: Double(bytes))
        } else {
            hotCounters.imageClientBytes.increment(by: Double(bytes))
        }
    }

    /// The series every hit counts, looked up once: counting a hit then
    /// takes one small lock per series and builds no label.
    struct HotCounters: Sendable {
        let webpRequests: MetricsRegistry.Counter
        /// A memoised transcode is a hit too (a legacy client's repeat).
        let transcodedRequests: MetricsRegistry.Counter
        let imageClientBytes: MetricsRegistry.Counter
        let sources: [ImageSource: MetricsRegistry.Counter]

        init(_ metrics: MetricsRegistry) {
            webpRequests = metrics.counter(BridgeProxy.requestsFamily, labels: "outcome=\"\(Outcome.webp.rawValue)\"")
            transcodedRequests = metrics.counter(
                BridgeProxy.requestsFamily, labels: "outcome=\"\(Outcome.transcoded.rawValue)\"")
            imageClientBytes = metrics.counter(
                BridgeProxy.clientBytesFamily, labels: "path=\"\(Path.image.rawValue)\"")
            var sources: [ImageSource: MetricsRegistry.Counter] = [:]
            for source in [ImageSource.memory, .disk, .revalidated, .network] {
                sources[source] = metrics.counter(
                    BridgeProxy.imageSourceFamily, labels: "source=\"\(source.rawValue)\"")
            }
            self.sources = sources
        }
    }

    /// The Prometheus text, with the queue gauges brought up to date.
    func renderMetrics() -> String {
        let load = transcodeQueue.load
        metrics.set(Self.transcodeRunningFamily, to: Double(load.running))
        metrics.set(Self.transcodeWaitingFamily, to: Double(load.waiting))
        let pipeline = configuration.pipeline
        let dataCacheBytes = (pipeline.configuration.dataCache as? MemoryDataCache)?.totalBytes ?? 0
        metrics.set(Self.dataCacheBytesFamily, to: Double(dataCacheBytes))
        metrics.set(Self.hitMemoBytesFamily, to: Double(hitMemo.usage.bytes))
        let negative = pipeline.negativeCacheStatistics
        metrics.set(Self.failedVariantsBytesFamily, to: Double(negative.bytes))
        metrics.set(Self.failedVariantsEntriesFamily, to: Double(negative.entries))
        metrics.set(Self.failedVariantsHitsFamily, to: Double(negative.hits))
        let transcodes = imageBridge.transcodes.usage
        metrics.set(Self.transcodeCacheBytesFamily, to: Double(transcodes.bytes))
        metrics.set(Self.transcodeCacheEntriesFamily, to: Double(transcodes.entries))
        metrics.set(Self.transcodeCacheMemoryHitsFamily, to: Double(transcodes.memoryHits))
        metrics.set(Self.transcodeCacheDiskHitsFamily, to: Double(transcodes.diskHits))
        metrics.set(Self.transcodeCacheMissesFamily, to: Double(transcodes.misses))
        metrics.set(Self.transcodeCacheJoinedFamily, to: Double(transcodes.joined))
        if let rewrittenPages { metrics.set(Self.rewrittenPagesBytesFamily, to: Double(rewrittenPages.usageBytes)) }
        metrics.set(Self.memoryBudgetFamily, to: Double(configuration.memoryBudget.totalBytes))
        if let resident = ResidentMemory.currentBytes { metrics.set(Self.residentBytesFamily, to: Double(resident)) }
        return metrics.render()
    }
}
