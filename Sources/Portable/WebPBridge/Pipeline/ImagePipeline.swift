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

    let dataTasks = TaskCoalescer<ImageDataResponse>()
    /// Fetches for callers that have redirects reported: kept apart from
    /// `dataTasks`, whose fetches follow them.
    let redirectReportingDataTasks = TaskCoalescer<ImageDataResponse>()
    let imageTasks = TaskCoalescer<ImageResponse>()
    let negativeCache: NegativeCache
    let decodeQueue: WorkQueue
    let prefetcher: Prefetcher
    private let plannedFromURLs = Lock(0)

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

    /// What the pipeline will fetch for `url`, and the cache key it uses.
    /// Public so an app can compute the key (e.g. to evict an image).
    public func plan(for url: URL) -> RequestPlan {
        plannedFromURLs.withLock { $0 += 1 }
        return RequestPlan(url: url, rewrite: configuration.rewriter?.rewrite(url))
    }

    /// How many times a URL was planned here (``plan(for:)``, and the
    /// URL-taking ``data(for:redirects:)``, ``cachedData(for:ifUsable:)``,
    /// ``image(for:)``): a caller that plans once and passes the plan down
    /// leaves it unchanged. A test hook.
    package var urlPlanCount: Int { plannedFromURLs.withLock { $0 } }

    /// The cache key of `url`: its rewritten URL, normalised.
    public func cacheKey(for url: URL) -> String { plan(for: url).cacheKey }

    /// The encoded bytes for `url` (the original URL; the rewriter is applied
    /// here), from the disk cache or the network.
    ///
    /// - Parameters:
    ///   - url: The original URL.
    ///   - redirects: Whether a redirect from the upstream is followed (the
    ///     default) or reported as an ``ImagePipelineError`` with its
    ///     ``ImagePipelineError/redirect`` set. Concurrent callers share one
    ///     fetch per cache key and per choice: a reporting caller never gets
    ///     a followed redirect's bytes, nor a following caller a redirect.
    /// - Throws: ``ImagePipelineError`` when neither the variant nor the
    ///   original can be had, for a redirect under
    ///   ``RedirectHandling/report``, and when cancelled
    ///   (``ImagePipelineError/isCancellation``).
    public func data(
        for url: URL, redirects: RedirectHandling = .follow
    ) async throws(ImagePipelineError) -> ImageDataResponse {
        try await data(for: plan(for: url), redirects: redirects)
    }

    /// The encoded bytes `plan` names, planned by the caller once (see
    /// ``RequestPlan/init(url:rewrite:)``): the same as ``data(for:redirects:)``
    /// without rewriting the URL again.
    /// - Throws: As ``data(for:redirects:)``.
    public func data(
        for plan: RequestPlan, redirects: RedirectHandling = .follow
    ) async throws(ImagePipelineError) -> ImageDataResponse {
        let tasks = redirects == .follow ? dataTasks : redirectReportingDataTasks
        do {
            return try await tasks.value(for: plan.cacheKey) { [self] in
                try await fetchData(plan, redirects: redirects)
            }
        } catch {
            throw ImagePipelineError(error, url: plan.originalURL.absoluteString)
        }
    }

    /// The decoded image for `url`, from memory, disk or the network.
    ///
    /// - Throws: ``ImagePipelineError``, also when cancelled
    ///   (``ImagePipelineError/isCancellation``) or when the decode queue is
    ///   full (``ImagePipelineError/isDecodeQueueFull``).
    public func image(for url: URL) async throws(ImagePipelineError) -> ImageResponse {
        let plan = plan(for: url)
        if let image = configuration.memoryCache?.image(for: plan.cacheKey) {
            trafficMeter.recordMemoryHit()
            return ImageResponse(
                image: image, fetchedURL: plan.variantURL ?? url, cacheKey: plan.cacheKey,
                isVariant: plan.variantURL != nil, isFallback: false, source: .memory, isFinal: true)
        }
        do {
            return try await imageTasks.value(for: plan.cacheKey) { [self] in
                try await loadImage(plan)
            }
        } catch {
            throw ImagePipelineError(error, url: url.absoluteString)
        }
    }

    /// Fetches and decodes in flight, counted once per cache key however
    /// many callers wait on them (prefetches included). Zero once every
    /// caller has finished or been cancelled: cancelled work does not linger.
    public var activeFetchCount: Int {
        dataTasks.inFlightCount + redirectReportingDataTasks.inFlightCount + imageTasks.inFlightCount
    }

    /// Returns once ``activeFetchCount`` is 0, woken by the fetches ending
    /// (no polling); returns early when the task is cancelled.
    package func waitUntilNoActiveFetch() async {
        // One table at a time; an image run may start a data run, so look
        // again until all three are empty at once.
        repeat {
            await imageTasks.waitUntilInFlightCount { $0 == 0 }
            await dataTasks.waitUntilInFlightCount { $0 == 0 }
            await redirectReportingDataTasks.waitUntilInFlightCount { $0 == 0 }
        } while activeFetchCount != 0 && !Task.isCancelled
    }

    /// Returns once `count` callers wait on the image run for `cacheKey`
    /// (the one that started it and those that joined it), woken by each
    /// caller joining or leaving; returns early when the task is cancelled.
    package func waitUntilImageCallers(for cacheKey: String, count: Int) async {
        await imageTasks.waitUntilWaiterCount(for: cacheKey) { $0 == count }
    }

    /// Removes `url`'s entries from both caches.
    public func removeCached(_ url: URL) {
        let plan = plan(for: url)
        configuration.memoryCache?.remove(plan.cacheKey)
        configuration.dataCache?.remove(plan.cacheKey)
        configuration.dataCache?.remove(plan.originalCacheKey)
    }
}

/// How the pipeline will serve one URL: planned once, from the rewriter's
/// result, and carried down to the fetch.
public struct RequestPlan: Sendable, Equatable {
    /// The URL the caller asked for.
    public var originalURL: URL
    /// The WebP variant to fetch, or `nil` when no rule rewrites the URL.
    public var variantURL: URL?
    /// The key under which both caches keep the image.
    public var cacheKey: String
    /// The key of the original's bytes, used after a fallback.
    public var originalCacheKey: String

    /// Creates a plan from its parts.
    public init(originalURL: URL, variantURL: URL?, cacheKey: String, originalCacheKey: String) {
        self.originalURL = originalURL
        self.variantURL = variantURL
        self.cacheKey = cacheKey
        self.originalCacheKey = originalCacheKey
    }

    /// The plan for `url` given the rewriter's result for it (`nil`: no
    /// rewriter): the variant when rewritten, under the result's key.
    public init(url: URL, rewrite: RewriteResult?) {
        let original = Rewriter.normalizedCacheKey(for: url)
        guard let rewrite else {
            self.init(originalURL: url, variantURL: nil, cacheKey: original, originalCacheKey: original)
            return
        }
        self.init(
            originalURL: url, variantURL: rewrite.isRewritten ? rewrite.url : nil, cacheKey: rewrite.cacheKey,
            originalCacheKey: original)
    }

    /// The plan that fetches `variant` as it is, under its own key (an
    /// AVIF variant, or the WebP counterpart a page's AVIF URL names).
    public init(fetching variant: FormatVariant) {
        self.init(
            originalURL: variant.url, variantURL: nil, cacheKey: variant.cacheKey, originalCacheKey: variant.cacheKey)
    }
}
