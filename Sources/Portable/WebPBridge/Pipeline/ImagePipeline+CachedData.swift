public import Foundation

extension ImagePipeline {
    /// What ``data(for:)-(URL)`` would deliver for `url` right now from the data
    /// cache alone — a fresh, complete entry for the variant, or for the
    /// original while the variant is in the negative cache — or `nil` when
    /// answering needs the network (a miss, a stale entry to revalidate).
    ///
    /// Synchronous and cheap, so a server can answer cache hits on its own
    /// thread (``HTTPServer``'s immediate path) without starting a task. A
    /// hit is counted by the ``TrafficMeter`` only when `usable` accepts it,
    /// so a caller that declines and then calls ``data(for:)-(URL)`` is not counted
    /// twice.
    ///
    /// - Parameters:
    ///   - url: The original URL, as for ``data(for:)-(URL)``.
    ///   - usable: Whether the caller will deliver this hit; default: always.
    /// - Returns: The cached bytes with their response metadata (`source`
    ///   `.disk`, 0 network bytes), or `nil`.
    public func cachedData(
        for url: URL, ifUsable usable: (ImageDataResponse) -> Bool = { _ in true }
    ) -> ImageDataResponse? {
        guard configuration.dataCache != nil else { return nil }
        return cachedData(for: plan(for: url), ifUsable: usable)
    }

    /// What ``data(for:)-(RequestPlan)`` would deliver for `plan` right
    /// now from the data cache alone, as ``cachedData(for:ifUsable:)`` does
    /// for a URL, without planning again (for a request that saves data,
    /// its own entry, else the full answer's); always `nil` for a request
    /// that reloads (``ImageRequest/CachePolicy/reloadIgnoringCache``).
    public func cachedData(
        for plan: RequestPlan, ifUsable usable: (ImageDataResponse) -> Bool = { _ in true }
    ) -> ImageDataResponse? {
        guard let cache = configuration.dataCache, plan.request.cachePolicy != .reloadIgnoringCache else {
            return nil
        }
        let now = configuration.now()
        let fallsBack = plan.variantURL != nil && negativeCache.contains(plan.cacheKey, now: now)
        let key = fallsBack ? plan.originalCacheKey : plan.cacheKey
        guard
            let hit = cachedHit(
                cache.entry(for: key), key: key, standIn: fallsBack ? plan.originalStandInKey : plan.standInKey,
                in: cache, url: fallsBack ? plan.originalURL : plan.variantURL ?? plan.originalURL,
                isVariant: !fallsBack && plan.variantURL != nil, isFallback: fallsBack, now: now),
            usable(hit)
        else { return nil }
        if fallsBack { trafficMeter.recordFallback() }
        recordHit(hit)
        return hit
    }

    /// Counts a delivery of `hit`, a response ``cachedData(for:ifUsable:)``
    /// returned earlier, delivered again from the caller's own copy (a
    /// server that keeps ready answers): the ``TrafficMeter`` sees it as
    /// the cache hit it is.
    /// - Parameter bytes: The size of the data `hit` was returned with, when
    ///   the copy was kept without it; `hit.data.count` otherwise.
    public func recordCachedDelivery(of hit: ImageDataResponse, bytes: Int? = nil) {
        recordHit(bytes: bytes ?? hit.data.count, isVariant: hit.isVariant)
    }
}
