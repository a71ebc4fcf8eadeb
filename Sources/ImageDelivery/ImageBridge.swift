public import ConcurrencySupport
import Foundation
import HTTPFields
public import ImageCoding
public import ImagePipeline
public import URLRewriting

/// The image path of both bridges — the proxy and the URL protocol are thin
/// adapters over it, so they cannot drift apart.
///
/// Given one request's facts (``DeliveryRequest``) it decides
/// (``route(_:)``: claim or pass through), fetches through the shared
/// ``ImagePipeline`` (WebP variant, one cache, fallback to the original),
/// transcodes on one bounded ``WorkQueue`` for clients that cannot show the
/// variant, and returns the ``Delivery``: the body or "hand over the
/// original", its fields (`Content-Type`, `Vary`, cache fields, `ETag`),
/// a 304 for a matching `If-None-Match`, or the failure to report.
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
    /// What the image path is built from, with documented defaults.
    public struct Configuration: Sendable {
        /// Fetches and caches the images.
        public var pipeline: ImagePipeline
        /// Decides which URLs are images to claim; default: the pipeline's
        /// own rewriter. `nil` claims nothing.
        public var rewriter: Rewriter?
        /// Decides, per client, between WebP, a transcode and the original.
        public var clientPolicy: ClientPolicy
        /// JPEG quality and PNG compression of transcodes.
        public var transcoder: Transcoder.Configuration
        /// Transcodes running at once. Default: the number of cores.
        public var transcodeConcurrency: Int
        /// Transcodes waiting for a core; beyond it a request is answered
        /// ``Delivery/Content/overloaded(retryAfterSeconds:)`` at once.
        /// Default: 4 per core, at least 8.
        public var transcodeQueueLimit: Int
        /// Images larger than this are not transcoded: the client gets the
        /// original. Default 16 MiB.
        public var maxTranscodeInputBytes: Int
        /// The `Retry-After` of an overloaded answer, in seconds. Default 1.
        public var retryAfterSeconds: Int
        /// The most bytes of finished transcodes kept in memory
        /// (``TranscodeCache``; also kept on the pipeline's ``DiskCache``
        /// when it has one); 0 keeps none. Default 8 MiB.
        public var transcodeCacheBytes: Int

        /// Creates a configuration; every parameter after `pipeline` has the
        /// documented default.
        public init(
            pipeline: ImagePipeline, clientPolicy: ClientPolicy = .standard,
            transcoder: Transcoder.Configuration = Transcoder.Configuration()
        ) {
            self.pipeline = pipeline
            rewriter = pipeline.configuration.rewriter
            self.clientPolicy = clientPolicy
            self.transcoder = transcoder
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            transcodeConcurrency = cores
            transcodeQueueLimit = max(8, 4 * cores)
            maxTranscodeInputBytes = 16 << 20
            retryAfterSeconds = 1
            transcodeCacheBytes = TranscodeCache.defaultCapacityBytes
        }

        /// Checks the invariants: at least one transcode at once, a
        /// non-negative queue limit and `Retry-After`, a positive input cap.
        /// - Throws: ``ImageBridgeError`` naming the field.
        public func validate() throws(ImageBridgeError) {
            guard transcodeConcurrency >= 1 else {
                throw .invalidConfiguration("transcodeConcurrency \(transcodeConcurrency) is below 1")
            }
            guard transcodeQueueLimit >= 0 else {
                throw .invalidConfiguration("transcodeQueueLimit \(transcodeQueueLimit) is negative")
            }
            guard maxTranscodeInputBytes > 0 else {
                throw .invalidConfiguration("maxTranscodeInputBytes \(maxTranscodeInputBytes) is not positive")
            }
            guard retryAfterSeconds >= 0 else {
                throw .invalidConfiguration("retryAfterSeconds \(retryAfterSeconds) is negative")
            }
        }
    }

    /// The configuration the core was created with.
    public let configuration: Configuration
    /// Bounds transcoding: ``Configuration/transcodeConcurrency`` at once,
    /// ``Configuration/transcodeQueueLimit`` waiting, overloaded beyond.
    public let transcodeQueue: WorkQueue
    let transcoder: Transcoder
    /// AVIF variants that failed recently (bounded: 1,024 keys of ≤ 4 KiB),
    /// remembered for the pipeline's negative-cache lifetime.
    let failedVariants: FailedVariants
    /// Finished transcodes, by source version and client class.
    public let transcodes: TranscodeCache
    /// The `Vary` of every answer on the image path (and of the originals
    /// other clients of a claimed URL get).
    public let vary: String

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
        vary = configuration.clientPolicy.varyFields
        transcodes = TranscodeCache(
            capacityBytes: configuration.transcodeCacheBytes,
            disk: configuration.pipeline.configuration.dataCache as? DiskCache, transcoder: configuration.transcoder)
        failedVariants = FailedVariants(lifetime: configuration.pipeline.configuration.negativeCacheLifetime)
    }

    // MARK: Deciding

    /// Where `request` goes, without waiting: the image path for a `GET` or
    /// `HEAD` whose URL a rule rewrites (or that asks for WebP or AVIF
    /// already) and
    /// whose client the policy claims, unless the client forbids
    /// transforming; otherwise passed through — with ``vary`` when the URL is
    /// one other clients get transformed.
    public func route(_ request: DeliveryRequest) -> DeliveryRoute {
        guard request.method == "GET" || request.method == "HEAD", let rewriter = configuration.rewriter else {
            return .passThrough(vary: nil)
        }
        let rewrite = rewriter.rewrite(request.url)
        guard rewrite.isRewritten || rewrite.reason.kind == .alreadyWebP || rewrite.reason.kind == .alreadyAVIF
        else { return .passThrough(vary: nil) }
        let decision = configuration.clientPolicy.decision(for: Self.client(of: request), rewrite: rewrite)
        if case .passThrough = decision { return .passThrough(vary: vary) }
        if CacheControl.containsNoTransform(request.cacheControl) { return .passThrough(vary: vary) }
        return .image(decision)
    }

    /// Whether a page (HTML) answered to `request` may name the variants
    /// instead of the originals: a `GET` or `HEAD` without `no-transform`
    /// from a client whose images the policy serves variants to (as they
    /// are or transcoded, since they come back through a bridge). The
    /// proxy's `--rewrite-html` asks this; such pages carry ``vary``.
    public func rewritesPage(_ request: DeliveryRequest) -> Bool {
        guard request.method == "GET" || request.method == "HEAD", configuration.rewriter != nil,
            !CacheControl.containsNoTransform(request.cacheControl)
        else { return false }
        return configuration.clientPolicy.servesVariants(to: Self.client(of: request))
    }

    /// The client as the policy sees it, its device class guessed from its
    /// `User-Agent` unless given.
    private static func client(of request: DeliveryRequest) -> ClientRequest {
        ClientRequest(
            url: request.url, userAgent: request.userAgent, accept: request.accept,
            deviceClass: request.deviceClass ?? DeviceClass.guessed(fromUserAgent: request.userAgent))
    }

    // MARK: Delivering

    /// The answer from the pipeline's data cache alone when the client shows
    /// the cached bytes as they are (WebP to a WebP client, or what the CDN
    /// answered in another format): no waiting, no transcoding, so a server
    /// can answer on its own thread. `nil` when answering needs more.
    public func cachedDelivery(for request: DeliveryRequest, decision: ClientDecision) -> Delivery? {
        guard decision.servedFormat == .webp,
            let image = configuration.pipeline.cachedData(
                for: request.url,
                ifUsable: { !CacheControl.containsNoTransform($0.headers.values(for: "Cache-Control")) }),
            Self.capabilities(for: decision).contains(image.format)
        else { return nil }
        return imageDelivery(request, image: image, body: image.data, format: image.format, transcodeSeconds: nil)
    }

    /// The answer to a request ``route(_:)`` put on the image path: the
    /// pipeline's bytes as the client shows them — as received, else
    /// transcoded on the bounded queue — or the original to hand over, or
    /// the failure. Never throws; waits at most for the pipeline's timeouts
    /// and the queue.
    /// - Parameters:
    ///   - redirects: ``RedirectHandling/report`` when the client follows
    ///     redirects itself (the URL protocol on Apple platforms).
    public func deliver(
        _ request: DeliveryRequest, decision: ClientDecision, redirects: RedirectHandling = .follow
    ) async -> Delivery {
        var decision = decision
        if case .serveVariant(let url, let format) = decision, format != .webp {
            if let delivery = await variantDelivery(request, url: url, format: format, redirects: redirects) {
                return delivery
            }
            // The variant failed (an error, not its format, a body over the
            // limit): the policy decides again without it — the WebP variant
            // for a client that shows WebP, else the transcode — and the
            // pipeline falls back to the original from there.
            guard let rewriter = configuration.rewriter else {
                return original(request, decision, "no rewriter", image: nil)
            }
            decision = configuration.clientPolicy.decision(
                for: Self.client(of: request), rewrite: rewriter.rewrite(request.url), excluding: [format])
            if case .passThrough(let reason) = decision { return original(request, decision, reason, image: nil) }
        }
        let image: ImageDataResponse
        do {
            image = try await source(of: request, decision: decision, redirects: redirects)
        } catch {
            return failure(error, request: request, decision: decision)
        }
        if Task.isCancelled { return delivery(request, .cancelled, image: image) }
        if CacheControl.containsNoTransform(image.headers.values(for: "Cache-Control")) {
            return original(request, decision, "the upstream forbids transforming it (no-transform)", image: image)
        }
        let capabilities = Self.capabilities(for: decision)
        if capabilities.contains(image.format) {
            return imageDelivery(request, image: image, body: image.data, format: image.format, transcodeSeconds: nil)
        }
        guard image.data.count <= configuration.maxTranscodeInputBytes else {
            return original(
                request, decision, "larger than the transcode limit (\(configuration.maxTranscodeInputBytes) bytes)",
                image: image)
        }
        let transcoder = self.transcoder
        let source = image.data
        let consumer = capabilities
        do {
            // A transcode made before for this source version and client class answers without one.
            let answer = try await transcodes.answer(of: image, for: consumer) {
                try await transcodeQueue.run { () throws -> (Transcoder.Output, Double) in
                    let start = ContinuousClock.now
                    let output = try transcoder.transcode(source, for: consumer)
                    let elapsed = (ContinuousClock.now - start).components
                    return (output, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
                }
            }
            var delivery = imageDelivery(
                request, image: image, body: answer.data, format: answer.format,
                transcodeSeconds: answer.transcodeSeconds)
            delivery.isKeptTranscode = answer.wasKept
            return delivery
        } catch is WorkQueue.Full {
            return delivery(request, .overloaded(retryAfterSeconds: configuration.retryAfterSeconds), image: image)
        } catch is CancellationError {
            return delivery(request, .cancelled, image: image)
        } catch {
            // Bytes that sniff as an image but do not decode: the original, as the upstream has it.
            return original(request, decision, "the variant does not decode (\(error))", image: image)
        }
    }

    /// The formats the client of `decision` shows as they are: WebP when
    /// it is served WebP, and what every client shows. Anything else is
    /// transcoded (an AVIF among them, for a client not served AVIF).
    private static func capabilities(for decision: ClientDecision) -> Set<ImageFormat> {
        var capabilities = Transcoder.withoutWebP
        if decision.servedFormat == .webp { capabilities.insert(.webp) }
        return capabilities
    }

    /// The bytes to serve or transcode: the pipeline's for the request's URL
    /// (its WebP variant, falling back to the original). A URL that asks for
    /// AVIF itself is its own "original": a client the policy gives WebP
    /// or a transcode gets the WebP counterpart first (the decision's URL),
    /// and the AVIF only when that fails.
    private func source(
        of request: DeliveryRequest, decision: ClientDecision, redirects: RedirectHandling
    ) async throws(ImagePipelineError) -> ImageDataResponse {
        let pipeline = configuration.pipeline
        let counterpart = decision.fetchURL(original: request.url)
        if counterpart != request.url, configuration.rewriter?.rewrite(request.url).reason.kind == .alreadyAVIF {
            do {
                return try await pipeline.data(for: counterpart, redirects: redirects)
            } catch {
                if error.isCancellation || error.redirect != nil { throw error }
            }
        }
        return try await pipeline.data(for: request.url, redirects: redirects)
    }

    /// The variant in a format other than WebP, through the pipeline (its
    /// own cache entry: the key is the URL fetched), when it comes back whole
    /// and in that format; `nil` to fall back, and the failure remembered in
    /// ``failedVariants`` so the next clients skip it for a while. A format
    /// the codecs do not know yet (``ImageFormat`` without it) always falls
    /// back, without a fetch.
    private func variantDelivery(
        _ request: DeliveryRequest, url: URL, format: VariantFormat, redirects: RedirectHandling
    ) async -> Delivery? {
        let now = configuration.pipeline.configuration.now()
        let key = Rewriter.normalizedCacheKey(for: url)
        guard let expected = ImageFormat(rawValue: format.rawValue), !failedVariants.contains(key, now: now) else {
            return nil
        }
        let image: ImageDataResponse
        do {
            image = try await configuration.pipeline.data(for: url, redirects: redirects)
        } catch {
            if error.isCancellation { return delivery(request, .cancelled) }
            failedVariants.insert(key, now: now)
            return nil
        }
        if Task.isCancelled { return delivery(request, .cancelled, image: image) }
        guard image.format == expected, !CacheControl.containsNoTransform(image.headers.values(for: "Cache-Control"))
        else {
            failedVariants.insert(key, now: now)
            return nil
        }
        return imageDelivery(request, image: image, body: image.data, format: image.format, transcodeSeconds: nil)
    }

    /// A pipeline failure as the client is to see it.
    private func failure(_ error: ImagePipelineError, request: DeliveryRequest, decision: ClientDecision) -> Delivery {
        if error.isCancellation { return delivery(request, .cancelled) }
        if let redirect = error.redirect { return delivery(request, .redirect(redirect)) }
        if let loading = error.loadingError, loading.kind != .tooLarge {
            return delivery(request, .upstreamFailure(loading, url: error.url))
        }
        // The upstream answered, but not with an image the pipeline keeps (an
        // HTTP error, a page, a body over its limit, a redirect the rules do
        // not allow): the client sees exactly what the upstream says.
        return original(request, decision, error.description, image: nil)
    }

    private func original(
        _ request: DeliveryRequest, _ decision: ClientDecision, _ reason: String, image: ImageDataResponse?
    ) -> Delivery {
        delivery(request, .original(reason: reason, refusesWebP: decision.servedFormat != .webp), image: image)
    }

    private func delivery(
        _ request: DeliveryRequest, _ content: Delivery.Content, image: ImageDataResponse? = nil
    ) -> Delivery {
        Delivery(content: content, originalURL: request.url, vary: vary, fields: [:], image: image)
    }

    /// `body` as the image answer, with its fields; 304 when the request's
    /// `If-None-Match` names its tag.
    private func imageDelivery(
        _ request: DeliveryRequest, image: ImageDataResponse, body: Data, format: ImageFormat,
        transcodeSeconds: Double?
    ) -> Delivery {
        var fields: HTTPFieldList = ["Content-Type": format.mimeType, "Vary": vary]
        for name in Self.copiedFields {
            for field in image.headers.fields(named: name) { fields.add(field) }
        }
        let etag = TransformedEntityTag.make(
            cacheKey: image.cacheKey, fetchedURL: image.fetchedURL.absoluteString, deliveredFormat: format.rawValue,
            upstreamETag: image.headers["ETag"], upstreamLastModified: image.headers["Last-Modified"],
            source: image.data)
        fields.add(name: "ETag", value: etag)
        var delivery = Delivery(
            content: .image(body: body, format: format), originalURL: request.url, vary: vary, fields: fields,
            image: image, transcodeSeconds: transcodeSeconds)
        if let ifNoneMatch = request.ifNoneMatch, EntityTag.ifNoneMatch(ifNoneMatch, matches: etag) {
            delivery.content = .notModified
            delivery.fields.remove(name: "Content-Type")
        }
        return delivery
    }

    /// The upstream's cache fields an image answer carries.
    private static let copiedFields = ["Cache-Control", "Expires", "Last-Modified"]
}

extension ClientDecision {
    /// Whether the client is to get WebP (rather than AVIF, a transcode or the original).
    public var servesWebP: Bool { servedFormat == .webp }
}

/// A bridge core that cannot be built as configured.
public enum ImageBridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field breaks an invariant; the text names it.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let text): "invalid image bridge configuration: \(text)"
        }
    }
}
