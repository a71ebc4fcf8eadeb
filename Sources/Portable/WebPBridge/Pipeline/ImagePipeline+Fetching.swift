import Foundation

extension ImagePipeline {
    /// ``fetchData(_:)``, shared by the concurrent callers of the same
    /// ``RequestPlan/fetchKey``; a cache-only request has nothing to wait
    /// for and runs alone.
    func fetchShared(_ plan: RequestPlan) async throws -> ImageDataResponse {
        if plan.request.cachePolicy == .cacheOnly { return try await fetchData(plan) }
        return try await dataTasks.value(for: plan.fetchKey) { [self] in
            try await fetchData(plan)
        }
    }

    /// Disk, then network (as the request's cache policy allows); the
    /// variant first unless it failed recently or is known to outweigh the
    /// original, then the original. Under ``RedirectHandling/report`` a
    /// redirect of either is thrown as it is: it says where the image
    /// lives, not that the variant failed. Under
    /// ``ImageRequest/CachePolicy/cacheOnly`` a miss is not a failed
    /// variant either: nothing is remembered.
    func fetchData(_ plan: RequestPlan) async throws -> ImageDataResponse {
        let now = configuration.now()
        guard let variantURL = plan.variantURL else {
            return try await fetchOne(
                plan.originalURL, key: plan.cacheKey, standIn: plan.standInKey, isVariant: false, isFallback: false,
                request: plan.request)
        }
        if !negativeCache.contains(plan.cacheKey, now: now) {
            do {
                let variant = try await fetchOne(
                    variantURL, key: plan.cacheKey, standIn: plan.standInKey, isVariant: true, isFallback: false,
                    request: plan.request)
                rememberIfOutweighing(variant, plan)
                return variant
            } catch let error as ImagePipelineError where !error.isCancellation && error.redirect == nil {
                // A cache-only miss: the original may be cached instead.
                if !error.isNotCached { markVariantFailed(plan) }
            }
        }
        trafficMeter.recordFallback()
        return try await fetchOne(
            plan.originalURL, key: plan.originalCacheKey, standIn: plan.originalStandInKey, isVariant: false,
            isFallback: true, request: plan.request)
    }

    /// A variant just fetched that is larger than the original the data cache
    /// holds (the bytes show it) is not worth asking for: for the negative
    /// cache's lifetime the original is asked for instead — from the cache,
    /// at no cost on the wire — rather than the variant again. The variant
    /// already paid for is still delivered this time.
    func rememberIfOutweighing(_ variant: ImageDataResponse, _ plan: RequestPlan) {
        guard variant.source == .network || variant.source == .revalidated,
            let original = configuration.dataCache?.entry(for: plan.originalCacheKey),
            original.data.count < variant.data.count
        else { return }
        negativeCache.insert(plan.cacheKey, now: configuration.now())
        trafficMeter.recordOutweighingVariant()
    }

    /// Remembers that a variant failed and forgets anything cached for it.
    func markVariantFailed(_ plan: RequestPlan) {
        negativeCache.insert(plan.cacheKey, now: configuration.now())
        configuration.dataCache?.remove(plan.cacheKey)
        configuration.memoryCache?.remove(plan.cacheKey)
        configuration.memoryCache?.remove(plan.imageCacheKey)
    }

    /// One URL through the disk cache and the network, as `request`'s cache
    /// policy allows: a fresh entry is a hit and a stale one is revalidated
    /// (``ImageRequest/CachePolicy/useCache``); the entry is not read
    /// (``ImageRequest/CachePolicy/reloadIgnoringCache``); any complete
    /// entry is a hit and a miss throws (``ImageRequest/CachePolicy/cacheOnly``).
    /// Where `key` has no hit, an entry under `standIn` (the full answer,
    /// for a request that asks for less) is one, as the same policy reads it;
    /// a stale one is not revalidated: the request asks for its own answer.
    private func fetchOne(
        _ url: URL, key: String, standIn: String?, isVariant: Bool, isFallback: Bool, request: ImageRequest
    ) async throws -> ImageDataResponse {
        let now = configuration.now()
        var conditionalHeaders = HTTPFieldList()
        let cache = request.cachePolicy == .reloadIgnoringCache ? nil : configuration.dataCache
        let cached = cache?.entry(for: key)
        if let cache,
            let hit = cachedHit(
                cached, key: key, standIn: standIn, in: cache, url: url, isVariant: isVariant, isFallback: isFallback,
                now: request.cachePolicy == .cacheOnly ? nil : now)
        {
            recordHit(hit)
            return hit
        }
        if request.cachePolicy == .cacheOnly { throw ImagePipelineError.notCached(url: url.absoluteString) }
        if let cached { conditionalHeaders = CachePolicy().revalidationHeaders(for: cached) }

        var headers = conditionalHeaders
        headers["Accept"] = isVariant ? configuration.variantAccept : configuration.originalAccept
        request.addHints(to: &headers)
        let loaded = try await load(url, headers: headers, isVariant: isVariant, request: request)
        let host = loaded.url.host?.lowercased() ?? "-"

        if loaded.statusCode == 304, let cached {
            trafficMeter.recordNetwork(host: host, format: "not-modified", bytes: loaded.body.count)
            trafficMeter.recordRevalidation()
            let refreshed = configuration.dataCache?.refresh(key, with: loaded, now: now) ?? cached
            guard case .success(let format) = ImageCompleteness.check(refreshed.data) else {
                configuration.dataCache?.remove(key)
                throw ImagePipelineError.notAnImage("cached entry is damaged", url: url.absoluteString)
            }
            trafficMeter.recordDelivery(variant: isVariant)
            return response(
                refreshed.data, format: format, refreshed.response, url: url, key: key,
                isVariant: isVariant, isFallback: isFallback, source: .revalidated,
                networkBytes: loaded.body.count)
        }

        let format: ImageFormat
        switch ImageCompleteness.check(loaded.body) {
        case .success(let sniffed): format = sniffed
        case .failure(let failure):
            trafficMeter.recordNetwork(host: host, format: "other", bytes: loaded.body.count)
            guard loaded.statusCode == 200 else {
                throw ImagePipelineError.http(loaded.statusCode, url: url.absoluteString)
            }
            throw ImagePipelineError.notAnImage(failure.message, url: url.absoluteString)
        }
        trafficMeter.recordNetwork(host: host, format: format.rawValue, bytes: loaded.body.count)
        guard loaded.statusCode == 200 else {
            throw ImagePipelineError.http(loaded.statusCode, url: url.absoluteString)
        }
        _ = configuration.dataCache?.store(loaded, for: key, now: now)
        trafficMeter.recordDelivery(variant: isVariant)
        return response(
            loaded.body, format: format, loaded, url: url, key: key, isVariant: isVariant,
            isFallback: isFallback, source: .network, networkBytes: loaded.body.count)
    }

    /// `url` from the network, following redirect hops the configuration's
    /// ``RedirectPolicy`` allows (loaders never follow them themselves), all
    /// within one ``Configuration/requestTimeout``. Under
    /// ``RedirectHandling/report`` the first redirect is thrown as it is.
    /// A hop the policy refuses, or one past its bound, is never fetched:
    /// the fetch fails with ``ImagePipelineError/refusedRedirect`` set.
    private func load(
        _ url: URL, headers: HTTPFieldList, isVariant: Bool, request imageRequest: ImageRequest
    ) async throws -> DataResponse {
        let policy = configuration.redirectPolicy
        let deadline = ContinuousClock.now + configuration.requestTimeout
        var hopURL = url
        var hops = 0
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw ImagePipelineError.loading(
                    DataLoadingError(.timedOut, "GET \(hopURL.absoluteString): timed out after redirects"),
                    url: url.absoluteString)
            }
            let request = DataRequest(
                url: hopURL, headers: headers, timeout: remaining, maxBodyBytes: configuration.maxBodyBytes,
                priority: imageRequest.priority)
            let loaded: DataResponse
            do {
                loaded = try await configuration.dataLoader.load(request)
            } catch {
                throw ImagePipelineError.loading(error, url: hopURL.absoluteString)
            }
            try Task.checkCancellation()
            guard let redirect = ImageRedirect(loaded, requested: hopURL, isVariant: isVariant) else { return loaded }
            trafficMeter.recordNetwork(
                host: hopURL.host?.lowercased() ?? "-", format: "redirect", bytes: loaded.body.count)
            if imageRequest.redirects == .report { throw ImagePipelineError.redirect(redirect) }
            guard hops < policy.maxHops else {
                throw ImagePipelineError.refusedRedirect(redirect, reason: "more than \(policy.maxHops) redirects")
            }
            guard policy.allows(redirect.location) else {
                throw ImagePipelineError.refusedRedirect(redirect, reason: "the target is outside \(policy.name)")
            }
            hops += 1
            hopURL = redirect.location
        }
    }

    /// The hit for `key`, whose entry `entry` the caller has read, or where
    /// that is none, for `standIn` (the full answer, for a request that
    /// asks for less): a fresh, complete entry, or any complete one when `now`
    /// is `nil` (``ImageRequest/CachePolicy/cacheOnly``).
    func cachedHit(
        _ entry: CachedEntry?, key: String, standIn: String?, in cache: any DataCaching, url: URL, isVariant: Bool,
        isFallback: Bool, now: Date?
    ) -> ImageDataResponse? {
        func hit(_ entry: CachedEntry?, _ key: String) -> ImageDataResponse? {
            guard let entry else { return nil }
            guard let now else {
                return anyHit(entry, url: url, key: key, isVariant: isVariant, isFallback: isFallback)
            }
            return freshHit(entry, url: url, key: key, isVariant: isVariant, isFallback: isFallback, now: now)
        }
        return hit(entry, key) ?? standIn.flatMap { hit(cache.entry(for: $0), $0) }
    }

    /// `cached` as a response when it is fresh and complete, else `nil`.
    func freshHit(
        _ cached: CachedEntry, url: URL, key: String, isVariant: Bool, isFallback: Bool, now: Date
    ) -> ImageDataResponse? {
        guard cached.isFresh(now: now) else { return nil }
        return anyHit(cached, url: url, key: key, isVariant: isVariant, isFallback: isFallback)
    }

    /// `cached` as a response when it is complete, fresh or not.
    private func anyHit(
        _ cached: CachedEntry, url: URL, key: String, isVariant: Bool, isFallback: Bool
    ) -> ImageDataResponse? {
        guard case .success(let format) = ImageCompleteness.check(cached.data) else { return nil }
        var hit = response(
            cached.data, format: format, cached.response, url: url, key: key,
            isVariant: isVariant, isFallback: isFallback, source: .disk, networkBytes: 0)
        hit.storedAt = cached.storedAt
        return hit
    }

    /// Counts a cache hit that is being delivered.
    func recordHit(_ hit: ImageDataResponse) {
        recordHit(bytes: hit.data.count, isVariant: hit.isVariant)
    }

    func recordHit(bytes: Int, isVariant: Bool) {
        trafficMeter.recordDiskHit(bytes: bytes)
        trafficMeter.recordDelivery(variant: isVariant)
    }

    /// The upstream fields an image response keeps: what caching and
    /// relaying it need.
    private static let keptFields = ["Content-Type", "Cache-Control", "ETag", "Last-Modified", "Expires"]

    private func response(
        _ data: Data, format: ImageFormat, _ upstream: DataResponse, url: URL, key: String, isVariant: Bool,
        isFallback: Bool, source: ImageSource, networkBytes: Int
    ) -> ImageDataResponse {
        var headers = upstream.headers
        headers.removeAll { field in !Self.keptFields.contains { HTTPFieldList.namesMatch($0, field.name) } }
        return ImageDataResponse(
            data: data, format: format, fetchedURL: upstream.url, cacheKey: key, isVariant: isVariant,
            isFallback: isFallback, source: source, statusCode: 200, headers: headers, networkBytes: networkBytes)
    }
}
