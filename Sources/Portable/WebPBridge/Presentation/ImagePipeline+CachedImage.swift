extension ImagePipeline {
    /// The memory cache's image for `request`, looked up synchronously (no
    /// disk, no network), or `nil`: what a view shows at once, before any
    /// load, so an image already in memory appears with no placeholder
    /// flash. `nil` too when the request's cache policy is
    /// ``ImageRequest/CachePolicy/reloadIgnoringCache``. A hit counts as a
    /// memory hit in ``trafficMeter``, as ``image(for:)-(ImageRequest)``'s
    /// would.
    public func cachedImage(for request: ImageRequest) -> ImageResponse? {
        guard request.cachePolicy != .reloadIgnoringCache, let memoryCache = configuration.memoryCache else {
            return nil
        }
        let plan = plan(for: request)
        guard let image = memoryCache.image(for: plan.imageCacheKey) else { return nil }
        trafficMeter.recordMemoryHit()
        return ImageResponse(
            image: image, fetchedURL: plan.variantURL ?? plan.originalURL, cacheKey: plan.cacheKey,
            isVariant: plan.variantURL != nil, isFallback: false, source: .memory, isFinal: true)
    }
}
