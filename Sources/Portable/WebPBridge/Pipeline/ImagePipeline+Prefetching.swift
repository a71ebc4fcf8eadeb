public import Foundation

extension ImagePipeline {
    /// Fetches `urls` at low priority, a few at a time
    /// (``Configuration/prefetchConcurrency``), skipping what is cached: into
    /// the disk cache when there is one (bytes are small; decoding waits for
    /// display), else decoded into the memory cache.
    /// Prefetch uses the same keys as display, so a prefetched image is a
    /// cache hit later, and a display request during a prefetch shares its
    /// fetch.
    public func prefetch(_ urls: [URL]) {
        prefetch(urls.map { ImageRequest(url: $0, priority: .low) })
    }

    /// Prefetches `requests` as ``prefetch(_:)-([URL])`` does, each with its
    /// own options (a target size decodes at that size when there is no
    /// disk cache; a priority orders the decodes).
    public func prefetch(_ requests: [ImageRequest]) {
        for request in requests {
            let plan = plan(for: request)
            if configuration.memoryCache?.image(for: plan.imageCacheKey) != nil { continue }
            if let entry = configuration.dataCache?.entry(for: plan.cacheKey), entry.isFresh(now: configuration.now()) {
                continue
            }
            let hasDiskCache = configuration.dataCache != nil
            prefetcher.start(plan.imageCacheKey) { [self] in
                if hasDiskCache {
                    _ = try? await data(for: plan)
                } else {
                    _ = try? await image(for: plan)
                }
            }
        }
    }

    /// Cancels the prefetches of `urls`; a display request sharing the same
    /// fetch keeps it alive.
    public func cancelPrefetch(_ urls: [URL]) {
        cancelPrefetch(urls.map { ImageRequest(url: $0, priority: .low) })
    }

    /// Cancels the prefetches of `requests` (matched by URL and target size).
    public func cancelPrefetch(_ requests: [ImageRequest]) {
        for request in requests { prefetcher.cancel(plan(for: request).imageCacheKey) }
    }

    /// Prefetches started and not yet finished.
    public var activePrefetchCount: Int { prefetcher.runningCount }

    /// Returns once ``activePrefetchCount`` is 0, woken by the prefetches
    /// finishing (no polling); returns early when the task is cancelled.
    package func waitUntilPrefetchesFinished() async {
        await prefetcher.waitUntilRunningCount { $0 == 0 }
    }
}
