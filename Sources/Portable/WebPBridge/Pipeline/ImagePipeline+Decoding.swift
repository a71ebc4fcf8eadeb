import Foundation

extension ImagePipeline {
    /// Fetches and decodes; a variant that fetches but does not decode is
    /// treated like any failed variant: remembered, and the original served.
    func loadImage(_ plan: RequestPlan) async throws -> ImageResponse {
        let data = try await self.data(forPlan: plan)
        do {
            let image = try await decode(data.data)
            configuration.memoryCache?.insert(image, for: plan.cacheKey)
            return ImageResponse(
                image: image, fetchedURL: data.fetchedURL, cacheKey: plan.cacheKey, isVariant: data.isVariant,
                isFallback: data.isFallback, source: data.source, isFinal: true)
        } catch let error as ImageCodecError {
            guard data.isVariant else { throw ImagePipelineError.decoding(error, url: data.fetchedURL.absoluteString) }
            markVariantFailed(plan)
            trafficMeter.recordFallback()
            let original = try await self.data(forPlan: plan)
            do {
                let image = try await decode(original.data)
                configuration.memoryCache?.insert(image, for: plan.cacheKey)
                return ImageResponse(
                    image: image, fetchedURL: original.fetchedURL, cacheKey: plan.cacheKey, isVariant: false,
                    isFallback: true, source: original.source, isFinal: true)
            } catch let error as ImageCodecError {
                throw ImagePipelineError.decoding(error, url: original.fetchedURL.absoluteString)
            }
        }
    }

    /// ``data(for:)`` for an already computed plan, sharing in-flight fetches.
    func data(forPlan plan: RequestPlan) async throws -> ImageDataResponse {
        try await dataTasks.value(for: plan.cacheKey) { [self] in
            try await fetchData(plan)
        }
    }

    /// Decodes with the configured codec on the bounded decode queue, off
    /// the caller's executor. The format is sniffed here, the same on every
    /// platform; a format the codec cannot decode is `.unsupported`.
    func decode(_ data: Data) async throws -> DecodedImage {
        let codec = configuration.codec
        let limits = configuration.decodingLimits
        return try await decodeQueue.run { () throws(ImageCodecError) -> DecodedImage in
            let format = try ImageFormat.sniff(data)
            guard codec.decodableFormats.contains(format) else {
                throw ImageCodecError(.unsupported, format: format, "\(codec.name) cannot decode \(format)")
            }
            try limits.checkInput(byteCount: data.count, format: format)
            return try codec.decode(data, format: format, limits: limits)
        }
    }
}
