import Foundation

extension ImagePipeline {
    /// Fetches and decodes; a variant that fetches but does not decode is
    /// treated like any failed variant: remembered, and the original served.
    func loadImage(_ plan: RequestPlan) async throws -> ImageResponse {
        let data = try await fetchShared(plan)
        do {
            let image = try await decode(data.data, for: plan.request)
            configuration.memoryCache?.insert(image, for: plan.imageCacheKey)
            return ImageResponse(
                image: image, fetchedURL: data.fetchedURL, cacheKey: plan.cacheKey, isVariant: data.isVariant,
                isFallback: data.isFallback, source: data.source, isFinal: true)
        } catch let error as ImageCodecError {
            guard data.isVariant else { throw ImagePipelineError.decoding(error, url: data.fetchedURL.absoluteString) }
            markVariantFailed(plan)
            trafficMeter.recordFallback()
            let original = try await fetchShared(plan)
            do {
                let image = try await decode(original.data, for: plan.request)
                configuration.memoryCache?.insert(image, for: plan.imageCacheKey)
                return ImageResponse(
                    image: image, fetchedURL: original.fetchedURL, cacheKey: plan.cacheKey, isVariant: false,
                    isFallback: true, source: original.source, isFinal: true)
            } catch let error as ImageCodecError {
                throw ImagePipelineError.decoding(error, url: original.fetchedURL.absoluteString)
            }
        }
    }

    /// Decodes with the configured codec on the bounded decode queue, off
    /// the caller's executor, in the order of the requests' priorities. The
    /// format is sniffed here, the same on every platform; a format the
    /// codec cannot decode is `.unsupported`. With a target size, a still
    /// is scaled to fit through the codec's cheapest path; an animation
    /// (``ImageFormat/mayBeAnimated(_:format:)``) is decoded whole, so that
    /// it keeps its frames.
    func decode(_ data: Data, for request: ImageRequest) async throws -> DecodedImage {
        let codec = configuration.codec
        let limits = configuration.decodingLimits
        let size = request.targetSize
        return try await decodeQueue.run(priority: request.priority.rawValue) {
            () throws(ImageCodecError) -> DecodedImage in
            let format = try ImageFormat.sniff(data)
            guard codec.decodableFormats.contains(format) else {
                throw ImageCodecError(.unsupported, format: format, "\(codec.name) cannot decode \(format)")
            }
            try limits.checkInput(byteCount: data.count, format: format)
            guard let size, !ImageFormat.mayBeAnimated(data, format: format) else {
                return try codec.decode(data, format: format, limits: limits)
            }
            return .still(
                try codec.decodeStill(
                    data, format: format, maxWidth: size.width, maxHeight: size.height, limits: limits))
        }
    }
}
