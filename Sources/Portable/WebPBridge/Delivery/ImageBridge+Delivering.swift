import Foundation

extension ImageBridge {
    /// The answer from the pipeline's data cache alone when the client shows
    /// the cached bytes as they are (WebP to a WebP client, or what the CDN
    /// answered in another format): no waiting, no transcoding, so a server
    /// can answer on its own thread. `nil` when answering needs more.
    public func cachedDelivery(for plan: DeliveryPlan) -> Delivery? {
        guard plan.decision.servedFormat == .webp,
            let image = configuration.pipeline.cachedData(
                for: plan.fetch,
                ifUsable: { !CacheControl.containsNoTransform($0.headers.values(for: "Cache-Control")) }),
            Self.capabilities(for: plan.decision).contains(image.format)
        else { return nil }
        return imageDelivery(plan.request, image: image, body: image.data, format: image.format, transcodeSeconds: nil)
    }

    /// The finished answer to a request ``route(_:)`` planned for the image
    /// path: the pipeline's bytes as the client shows them — as received,
    /// else transcoded on the bounded queue — or the original, fetched and
    /// relayed, or the failure. Never throws; waits at most for the
    /// pipeline's and the relay's timeouts and the queue.
    public func deliver(_ plan: DeliveryPlan) async -> Delivery {
        let request = plan.request
        var decision = plan.decision
        if let other = plan.otherFormat {
            if let delivery = await variantDelivery(request, other) { return delivery }
            // The variant failed (an error, not its format, a body over the
            // limit): the policy's decision without it — the WebP variant
            // for a client that shows WebP, else the transcode — and the
            // pipeline falls back to the original from there.
            decision = other.fallback
            if case .passThrough(let reason) = decision {
                return await original(request, decision, reason, image: nil)
            }
        }
        let image: ImageDataResponse
        do {
            image = try await source(of: plan, decision: decision)
        } catch {
            return await failure(error, request: request, decision: decision)
        }
        if Task.isCancelled { return delivery(request, .cancelled, image: image) }
        if CacheControl.containsNoTransform(image.headers.values(for: "Cache-Control")) {
            return await original(
                request, decision, "the upstream forbids transforming it (no-transform)", image: image)
        }
        let capabilities = Self.capabilities(for: decision)
        if capabilities.contains(image.format) {
            return imageDelivery(request, image: image, body: image.data, format: image.format, transcodeSeconds: nil)
        }
        guard image.data.count <= configuration.maxTranscodeInputBytes else {
            return await original(
                request, decision, "larger than the transcode limit (\(configuration.maxTranscodeInputBytes) bytes)",
                image: image)
        }
        return await transcode(request, decision, image: image, for: capabilities)
    }

    /// `image` transcoded on the bounded queue for a client that shows
    /// `capabilities`.
    private func transcode(
        _ request: DeliveryRequest, _ decision: ClientDecision, image: ImageDataResponse,
        for capabilities: Set<ImageFormat>
    ) async -> Delivery {
        let transcoder = self.transcoder
        let transcodeQueue = self.transcodeQueue
        let source = image.data
        let gifOriginal = gifOriginalPlan(request, image: image, for: capabilities)
        let pipeline = configuration.pipeline
        do {
            // A transcode made before for this source version and client class
            // answers without one, and one in flight is shared.
            let answer = try await transcodes.answer(of: image, for: capabilities) {
                let made = try await transcodeQueue.run { () throws -> (Transcoder.Output, Double) in
                    let start = ContinuousClock.now
                    let output = try transcoder.transcode(source, for: capabilities)
                    let elapsed = (ContinuousClock.now - start).components
                    return (output, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
                }
                guard let gifOriginal, made.0.format == .apng else { return made }
                return (await Self.smallerAnimation(apng: made.0, original: gifOriginal, pipeline: pipeline), made.1)
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
            return await original(request, decision, "the variant does not decode (\(error))", image: image)
        }
    }

    /// The plan that fetches the original GIF behind an animated variant, when
    /// this client cannot show the variant and will get an animation: the
    /// request names a `.gif` (a rule that converts GIFs made the variant) and
    /// the bytes are the variant's. `nil` otherwise.
    private func gifOriginalPlan(
        _ request: DeliveryRequest, image: ImageDataResponse, for capabilities: Set<ImageFormat>
    ) -> RequestPlan? {
        guard image.isVariant, !image.isFallback, capabilities.contains(.apng), capabilities.contains(.gif),
            let parts = URLParts(request.url.absoluteString), ImageType(path: parts.path) == .gif
        else { return nil }
        return RequestPlan(request: request.image, rewrite: nil)
    }

    /// The one decision for an animation a client cannot show as the variant
    /// (animated WebP to a client that shows neither WebP nor AVIF): the
    /// smaller on the wire of the bridge's APNG of the variant and the
    /// original GIF. A photograph's APNG is lossless over 24-bit frames and
    /// larger than its 256-colour GIF; a flat graphic's may be smaller. The
    /// original is fetched through the pipeline (its own cache entry, shared
    /// with any other request for it) only when a transcode runs; the answer
    /// is what ``TranscodeCache`` keeps for this source and client class, so
    /// later requests neither transcode nor compare again. The original is
    /// used only when it is whole and sniffs as GIF; otherwise (an error, a
    /// page, a body over the pipeline's `maxBodyBytes`, 32 MiB by default:
    /// the bound on what the comparison holds) the APNG.
    static func smallerAnimation(
        apng: Transcoder.Output, original: RequestPlan, pipeline: ImagePipeline
    ) async -> Transcoder.Output {
        guard let gif = try? await pipeline.data(for: original), gif.format == .gif, gif.data.count < apng.data.count
        else { return apng }
        return Transcoder.Output(data: gif.data, format: .gif, isTranscoded: true)
    }

    /// The formats the client of `decision` shows as they are: WebP when
    /// it is served WebP, and what every client shows. Anything else is
    /// transcoded (an AVIF among them, for a client not served AVIF).
    static func capabilities(for decision: ClientDecision) -> Set<ImageFormat> {
        var capabilities = Transcoder.withoutWebP
        if decision.servedFormat == .webp { capabilities.insert(.webp) }
        return capabilities
    }

    /// The bytes to serve or transcode: the pipeline's for the request's URL
    /// (its WebP variant, falling back to the original). A URL that asks for
    /// AVIF itself is its own "original": a client the policy gives WebP
    /// or a transcode gets the WebP counterpart first (the plan's
    /// ``DeliveryPlan/counterpart``), and the AVIF only when that fails.
    private func source(
        of plan: DeliveryPlan, decision: ClientDecision
    ) async throws(ImagePipelineError) -> ImageDataResponse {
        let pipeline = configuration.pipeline
        if let counterpart = plan.counterpart, decision.fetchURL(original: plan.request.url) == counterpart.originalURL
        {
            do {
                return try await pipeline.data(for: counterpart)
            } catch {
                if error.isCancellation || error.redirect != nil { throw error }
            }
        }
        return try await pipeline.data(for: plan.fetch)
    }

    /// The variant in a format other than WebP, through the pipeline (its
    /// own cache entry: the key is the URL fetched), when it comes back whole
    /// and in that format; `nil` to fall back, and the failure remembered in
    /// the pipeline's negative cache — the one the whole ladder uses, inside
    /// the memory budget — so the next clients skip it for a while. A format
    /// the codecs do not know yet (``ImageFormat`` without it) always falls
    /// back, without a fetch.
    private func variantDelivery(_ request: DeliveryRequest, _ other: DeliveryPlan.OtherFormat) async -> Delivery? {
        let pipeline = configuration.pipeline
        let key = other.fetch.cacheKey
        guard let expected = ImageFormat(rawValue: other.format.rawValue), !pipeline.variantFailedRecently(key) else {
            return nil
        }
        let image: ImageDataResponse
        do {
            image = try await pipeline.data(for: other.fetch)
        } catch {
            if error.isCancellation { return delivery(request, .cancelled) }
            pipeline.rememberFailedVariant(key)
            return nil
        }
        if Task.isCancelled { return delivery(request, .cancelled, image: image) }
        guard image.format == expected, !CacheControl.containsNoTransform(image.headers.values(for: "Cache-Control"))
        else {
            pipeline.rememberFailedVariant(key)
            return nil
        }
        return imageDelivery(request, image: image, body: image.data, format: image.format, transcodeSeconds: nil)
    }

    /// A pipeline failure as the client is to see it.
    private func failure(
        _ error: ImagePipelineError, request: DeliveryRequest, decision: ClientDecision
    ) async -> Delivery {
        if error.isCancellation { return delivery(request, .cancelled) }
        if let redirect = error.redirect { return delivery(request, .redirect(redirect)) }
        if let loading = error.loadingError, loading.kind != .tooLarge {
            return delivery(request, .upstreamFailure(loading, url: error.url))
        }
        // The upstream answered, but not with an image the pipeline keeps (an
        // HTTP error, a page, a body over its limit, a redirect the rules do
        // not allow): the client sees exactly what the upstream says.
        return await original(request, decision, error.description, image: nil)
    }

    func delivery(
        _ request: DeliveryRequest, _ content: Delivery.Content, image: ImageDataResponse? = nil
    ) -> Delivery {
        Delivery(
            content: content, originalURL: request.url, vary: vary, fields: [:], image: image,
            relayLimits: configuration.relay.limits)
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
            image: image, transcodeSeconds: transcodeSeconds, relayLimits: configuration.relay.limits)
        if let ifNoneMatch = request.ifNoneMatch, EntityTag.ifNoneMatch(ifNoneMatch, matches: etag) {
            delivery.content = .notModified
            delivery.fields.remove(name: "Content-Type")
        }
        return delivery
    }

    /// The upstream's cache fields an image answer carries.
    private static let copiedFields = ["Cache-Control", "Expires", "Last-Modified"]
}
