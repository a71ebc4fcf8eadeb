public import Foundation

/// Loads images: rewrites each URL to its WebP variant, fetches it once
/// however many callers ask, keeps the bytes as received on disk and the
/// decoded image in memory — all under one key, the rewritten URL — and
/// falls back to the original when the variant fails, so no image is lost.
///
/// Native views, prefetch and the web bridge share one pipeline and so one
/// cache entry per image. Thread-safe: every piece of shared state is behind
/// its own lock; decoding runs off the callers' executors, bounded by cores.
public final class ImagePipeline: Sendable {
    public let configuration: Configuration
    /// What crossed the network and what the caches saved.
    public let trafficMeter = TrafficMeter()

    /// Fetches in flight, by ``RequestPlan/fetchKey``.
    let dataTasks = TaskCoalescer<ImageDataResponse>()
    let imageTasks = TaskCoalescer<ImageResponse>()
    let negativeCache: NegativeCache
    let decodeQueue: WorkQueue
    let prefetcher: Prefetcher
    private let plannedRequests = Lock(0)

    public init(configuration: Configuration) {
        self.configuration = configuration
        negativeCache = NegativeCache(
            lifetime: configuration.negativeCacheLifetime, capacityBytes: configuration.negativeCacheBytes)
        decodeQueue = WorkQueue(concurrency: configuration.decodingConcurrency, queueLimit: Int.max)
        prefetcher = Prefetcher(concurrency: configuration.prefetchConcurrency)
    }

    /// Bytes held by the negative cache of failed variants, keys included
    /// (for a server's `/metrics`).
    public var negativeCacheBytes: Int { negativeCache.totalBytes }

    /// The negative cache's bytes, entries and hits (for a server's `/metrics`).
    public var negativeCacheStatistics: NegativeCache.Statistics { negativeCache.statistics }

    /// Whether the variant cached under `key` failed less than
    /// ``Configuration/negativeCacheLifetime`` ago: the fallback ladder's
    /// one negative cache, shared with the bridge core's AVIF rung.
    package func variantFailedRecently(_ key: String) -> Bool {
        negativeCache.contains(key, now: configuration.now())
    }

    /// Remembers that the variant cached under `key` failed now.
    package func rememberFailedVariant(_ key: String) {
        negativeCache.insert(key, now: configuration.now())
    }

    /// What the pipeline will fetch for `request`, and the cache keys it
    /// uses: the one planning step, carried down from here.
    public func plan(for request: ImageRequest) -> RequestPlan {
        plannedRequests.withLock { $0 += 1 }
        return RequestPlan(request: request, rewrite: configuration.rewriter?.rewrite(request.url))
    }

    /// The plan for `url` with every default option. Public so an app can
    /// compute the key (e.g. to evict an image).
    public func plan(for url: URL) -> RequestPlan { plan(for: ImageRequest(url: url)) }

    /// How many times a request was planned here (``plan(for:)-(ImageRequest)``,
    /// and every entry point that takes a request or a URL rather than a
    /// plan): a caller that plans once and passes the plan down leaves it
    /// unchanged. A test hook.
    package var planCount: Int { plannedRequests.withLock { $0 } }

    /// The cache key of `url`: its rewritten URL, normalised.
    public func cacheKey(for url: URL) -> String { plan(for: url).cacheKey }

    /// The encoded bytes for `request` (its URL is the original; the
    /// rewriter is applied here), from the disk cache or the network as its
    /// ``ImageRequest/cachePolicy`` allows.
    ///
    /// Concurrent callers share one fetch per cache key when they ask for the
    /// same thing (``ImageRequest/redirects`` and ``ImageRequest/cachePolicy``
    /// alike): a reporting caller never gets a followed redirect's bytes, nor
    /// a reloading caller a cached entry.
    ///
    /// - Throws: ``ImagePipelineError`` when neither the variant nor the
    ///   original can be had, for a redirect under ``RedirectHandling/report``
    ///   (``ImagePipelineError/redirect``), for a miss under
    ///   ``ImageRequest/CachePolicy/cacheOnly`` (``ImagePipelineError/isNotCached``),
    ///   and when cancelled (``ImagePipelineError/isCancellation``).
    public func data(for request: ImageRequest) async throws(ImagePipelineError) -> ImageDataResponse {
        try await data(for: plan(for: request))
    }

    /// ``data(for:)-(ImageRequest)`` for `url` with every default option.
    public func data(for url: URL) async throws(ImagePipelineError) -> ImageDataResponse {
        try await data(for: ImageRequest(url: url))
    }

    /// The encoded bytes `plan` names, planned by the caller once (see
    /// ``plan(for:)-(ImageRequest)``): the same as ``data(for:)-(ImageRequest)``
    /// without rewriting the URL again.
    /// - Throws: As ``data(for:)-(ImageRequest)``.
    public func data(for plan: RequestPlan) async throws(ImagePipelineError) -> ImageDataResponse {
        do {
            return try await fetchShared(plan)
        } catch {
            throw ImagePipelineError(error, url: plan.originalURL.absoluteString)
        }
    }

    /// The decoded image for `request`, from memory, disk or the network as
    /// its ``ImageRequest/cachePolicy`` allows, scaled to fit its
    /// ``ImageRequest/targetSize`` when it has one.
    ///
    /// - Throws: ``ImagePipelineError``, also when cancelled
    ///   (``ImagePipelineError/isCancellation``), when the decode queue is
    ///   full (``ImagePipelineError/isDecodeQueueFull``), and for a miss
    ///   under ``ImageRequest/CachePolicy/cacheOnly``.
    public func image(for request: ImageRequest) async throws(ImagePipelineError) -> ImageResponse {
        try await image(for: plan(for: request))
    }

    /// ``image(for:)-(ImageRequest)`` for `url` with every default option.
    public func image(for url: URL) async throws(ImagePipelineError) -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// The decoded image `plan` names, planned by the caller once.
    /// - Throws: As ``image(for:)-(ImageRequest)``.
    public func image(for plan: RequestPlan) async throws(ImagePipelineError) -> ImageResponse {
        if plan.request.cachePolicy != .reloadIgnoringCache,
            let image = configuration.memoryCache?.image(for: plan.imageCacheKey)
        {
            trafficMeter.recordMemoryHit()
            return ImageResponse(
                image: image, fetchedURL: plan.variantURL ?? plan.originalURL, cacheKey: plan.cacheKey,
                isVariant: plan.variantURL != nil, isFallback: false, source: .memory, isFinal: true)
        }
        do {
            return try await imageTasks.value(for: plan.imageFetchKey) { [self] in
                try await loadImage(plan)
            }
        } catch {
            throw ImagePipelineError(error, url: plan.originalURL.absoluteString)
        }
    }

    /// Fetches and decodes in flight, counted once per cache key however
    /// many callers wait on them (prefetches included). Zero once every
    /// caller has finished or been cancelled: cancelled work does not linger.
    public var activeFetchCount: Int {
        dataTasks.inFlightCount + imageTasks.inFlightCount
    }

    /// Returns once ``activeFetchCount`` is 0, woken by the fetches ending
    /// (no polling); returns early when the task is cancelled.
    package func waitUntilNoActiveFetch() async {
        // One table at a time; an image run may start a data run, so look
        // again until both are empty at once.
        repeat {
            await imageTasks.waitUntilInFlightCount { $0 == 0 }
            await dataTasks.waitUntilInFlightCount { $0 == 0 }
        } while activeFetchCount != 0 && !Task.isCancelled
    }

    /// Returns once `count` callers wait on the image run for `cacheKey`
    /// (the one that started it and those that joined it), woken by each
    /// caller joining or leaving; returns early when the task is cancelled.
    package func waitUntilImageCallers(for cacheKey: String, count: Int) async {
        await imageTasks.waitUntilWaiterCount(for: cacheKey) { $0 == count }
    }

    /// Removes `url`'s entries from both caches, at every target size.
    public func removeCached(_ url: URL) {
        let plan = plan(for: url)
        configuration.memoryCache?.removeAllSizes(of: plan.cacheKey)
        configuration.dataCache?.remove(plan.cacheKey)
        configuration.dataCache?.remove(plan.originalCacheKey)
    }
}
