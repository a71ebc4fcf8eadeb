public import Foundation

extension ImagePipeline {
    /// The image for `request`, progressively: while a WebP arrives from the
    /// network, partial images (decoded rows, the rest transparent, at the
    /// full size) as each further eighth of the rows decodes; then the final
    /// image, exactly what ``image(for:)-(ImageRequest)`` returns. A cached
    /// image, or a request whose cache policy is not
    /// ``ImageRequest/CachePolicy/useCache``, yields only its final image.
    ///
    /// The stream ends with an ``ImagePipelineError`` when no image can be
    /// had; cancelling the consuming task cancels the load.
    public func images(for request: ImageRequest) -> AsyncThrowingStream<ImageResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task { [self] in
                do {
                    try await loadProgressively(plan(for: request), continuation: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// ``images(for:)-(ImageRequest)`` for `url` with every default option.
    public func images(for url: URL) -> AsyncThrowingStream<ImageResponse, any Error> {
        images(for: ImageRequest(url: url))
    }

    private func loadProgressively(
        _ plan: RequestPlan, continuation: AsyncThrowingStream<ImageResponse, any Error>.Continuation
    ) async throws {
        let cached =
            configuration.memoryCache?.image(for: plan.imageCacheKey) != nil
            || configuration.dataCache?.entry(for: plan.cacheKey)?.isFresh(now: configuration.now()) == true
        guard plan.request.cachePolicy == .useCache, !cached, let variantURL = plan.variantURL,
            !negativeCache.contains(plan.cacheKey, now: configuration.now())
        else {
            continuation.yield(try await image(for: plan))
            return
        }
        // Stream the variant's bytes into an incremental decoder; partial
        // images are a preview only, so any failure here just skips them.
        let decoder = configuration.codec.makeProgressiveDecoder(limits: configuration.decodingLimits)
        let partials = PartialImageFeed(decoder: decoder) { image in
            continuation.yield(
                ImageResponse(
                    image: .still(image), fetchedURL: variantURL, cacheKey: plan.cacheKey, isVariant: true,
                    isFallback: false, source: .network, isFinal: false))
        }
        let request = DataRequest(
            url: variantURL, headers: ["Accept": configuration.variantAccept], timeout: configuration.requestTimeout,
            maxBodyBytes: configuration.maxBodyBytes, priority: plan.request.priority)
        if let loaded = try? await configuration.dataLoader.load(request, onChunk: { partials.append($0) }),
            loaded.statusCode == 200, case .success = ImageCompleteness.check(loaded.body)
        {
            // Hand the bytes to the caches so the final image costs no second fetch.
            trafficMeter.recordNetwork(
                host: variantURL.host?.lowercased() ?? "-",
                format: ImageFormat.sniffIfImage(loaded.body)?.rawValue ?? "other",
                bytes: loaded.body.count)
            _ = configuration.dataCache?.store(loaded, for: plan.cacheKey, now: configuration.now())
            if let image = try? await decode(loaded.body, for: plan.request) {
                configuration.memoryCache?.insert(image, for: plan.imageCacheKey)
                trafficMeter.recordDelivery(variant: true)
                continuation.yield(
                    ImageResponse(
                        image: image, fetchedURL: variantURL, cacheKey: plan.cacheKey, isVariant: true,
                        isFallback: false, source: .network, isFinal: true))
                return
            }
        }
        try Task.checkCancellation()
        continuation.yield(try await image(for: plan))
    }
}

/// Feeds chunks to the codec's progressive decoder and reports a partial
/// image each time another eighth of the rows is decoded; without such a
/// decoder (ImageIO's codec has none) it reports nothing. Chunks arrive one
/// at a time from the loader, so a lock only guards against misuse.
private final class PartialImageFeed: @unchecked Sendable {
    private struct Progress {
        var reportedRows = 0
        var failed: Bool
    }

    // @unchecked: the decoder and `report` are only used inside `progress.withLock`.
    private let decoder: (any ProgressiveImageDecoder)?
    private let progress: Lock<Progress>
    private let report: (Image) -> Void

    init(decoder: (any ProgressiveImageDecoder)?, report: @escaping (Image) -> Void) {
        self.decoder = decoder
        progress = Lock(Progress(failed: decoder == nil))
        self.report = report
    }

    func append(_ chunk: Data) {
        progress.withLock { progress in
            guard !progress.failed, let decoder else { return }
            do {
                guard let (rows, height) = try decoder.feed(chunk), height > 0 else { return }
                if rows - progress.reportedRows >= max(1, height / 8), let image = decoder.partialImage() {
                    progress.reportedRows = rows
                    report(image)
                }
            } catch {
                progress.failed = true
            }
        }
    }
}
