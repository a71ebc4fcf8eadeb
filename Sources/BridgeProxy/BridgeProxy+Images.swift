import ConcurrencySupport
import Foundation
import HTTPServer
import ImageCodecs
import ImagePipeline
import URLRewriting

extension BridgeProxy {
    /// The image path: the pipeline's bytes (variant, or the original after
    /// a fallback), then as received to a client that shows their format,
    /// else transcoded on the bounded queue.
    ///
    /// The bridge never turns an upstream answer into a worse one: when the
    /// pipeline gets no image but the upstream did answer (a 404, an HTML
    /// page, a body over the pipeline's limit), or the bytes will not
    /// decode, the original URL passes through so the client sees exactly
    /// what the upstream says. Only a transport failure (no connection, a
    /// timeout) becomes a 502.
    func serveImage(_ request: HTTPRequest, url: URL, decision: ClientDecision) async -> Reply {
        let image: ImageDataResponse
        do {
            image = try await configuration.pipeline.data(for: url)
        } catch let error as ImagePipelineError {
            if error.isCancellation {
                return refusal(.serviceUnavailable, "the request was cancelled", outcome: .cancelled)
            }
            if let loading = error.loadingError, loading.kind != .tooLarge {
                return upstreamFailure(loading, url: error.url)
            }
            if error.refusedRedirect != nil {
                // The redirect's target is outside the rules and was not fetched;
                // the passthrough below hands the client the upstream's redirect.
                log("redirect not followed: \(error.description)")
            }
            return await passThrough(request, url: url, vary: varyFields, refusesWebP: !decision.servesWebP)
        } catch {
            return refusal(.serviceUnavailable, "the request was cancelled", outcome: .cancelled)
        }
        recordImageSource(image.source)
        recordUpstreamBytes(image.networkBytes, path: .image)
        if image.isFallback { recordOriginalBytes(image.data.count) }
        var reply = await deliver(image, for: request, url: url, decision: decision)
        // What the pipeline fetched counts too when the reply is a passthrough after all.
        reply.upstreamBytes = (reply.upstreamBytes ?? 0) + image.networkBytes
        return reply
    }

    /// The image path's answer from the pipeline's data cache alone, when
    /// the client shows the cached bytes as they are (WebP to a WebP
    /// client, or an original the CDN answered with): no waiting, no
    /// transcoding, so it can run on the server's thread. `nil` otherwise.
    func cachedImageReply(
        _ request: HTTPRequest, url: URL, decision: ClientDecision
    ) -> (Reply, ImageDataResponse)? {
        guard decision.servesWebP,
            let image = configuration.pipeline.cachedData(
                for: url, ifUsable: { !CacheDirectives.containsNoTransform($0.headers["cache-control"]) })
        else { return nil }
        recordImageSource(image.source)
        if image.isFallback { recordOriginalBytes(image.data.count) }
        var reply = imageReply(request, image: image, body: image.data, format: image.format, transcoded: false)
        reply.upstreamBytes = 0
        return (reply, image)
    }

    /// The pipeline's bytes as the client shows them: as received, else
    /// transcoded; the original passed through when transforming is
    /// forbidden, too large, impossible, or would cost more.
    private func deliver(
        _ image: ImageDataResponse, for request: HTTPRequest, url: URL, decision: ClientDecision
    ) async -> Reply {
        // Every way out below that is not the image hands over the original,
        // fetched without WebP for a client that is not to get it.
        func original() async -> Reply {
            await passThrough(
                request, url: url, vary: varyFields, countsOriginal: true, refusesWebP: !decision.servesWebP)
        }
        if CacheDirectives.containsNoTransform(image.headers["cache-control"]) {
            // The upstream forbids transforming this image: hand over the original untouched.
            return await original()
        }
        var capabilities = Transcoder.withoutWebP
        if decision.servesWebP { capabilities.insert(.webp) }

        let delivered: Data
        let format: ImageFormat
        var transcoded = false
        if capabilities.contains(image.format) {
            delivered = image.data
            format = image.format
        } else if image.data.count > configuration.limits.maxTranscodeInputBytes
            || transcodeOutweighsOriginal.contains(image.cacheKey, now: configuration.pipeline.configuration.now())
        {
            return await original()
        } else {
            let transcoder = self.transcoder
            let source = image.data
            let consumer = capabilities
            do {
                let (output, seconds) = try await transcodeQueue.run { () throws -> (Transcoder.Output, Double) in
                    let start = ContinuousClock.now
                    let output = try transcoder.transcode(source, for: consumer)
                    let elapsed = (ContinuousClock.now - start).components
                    return (output, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
                }
                recordTranscode(seconds: seconds)
                // A lossy variant re-encoded as PNG (transparent pixels) can outweigh
                // the original PNG; never deliver more bytes than the original costs.
                if output.format == .png, !image.isFallback,
                    await originalSize(of: url).map({ $0 <= output.data.count }) == true
                {
                    transcodeOutweighsOriginal.insert(image.cacheKey, now: configuration.pipeline.configuration.now())
                    return await original()
                }
                delivered = output.data
                format = output.format
                transcoded = output.isTranscoded
            } catch is WorkQueue.Full {
                return Reply(
                    response: .text(
                        .serviceUnavailable, "the bridge is busy transcoding images; retry shortly",
                        headers: ["Retry-After": String(configuration.retryAfterSeconds)]),
                    outcome: .overloaded)
            } catch is CancellationError {
                return refusal(.serviceUnavailable, "the request was cancelled", outcome: .cancelled)
            } catch {
                // Bytes that sniff as an image but do not decode: the original, as the upstream has it.
                return await original()
            }
        }
        return imageReply(request, image: image, body: delivered, format: format, transcoded: transcoded)
    }

    /// The original's size from a `HEAD` (its `Content-Length`), or `nil`
    /// when the upstream does not say.
    private func originalSize(of url: URL) async -> Int? {
        let head = DataRequest(
            url: url, method: "HEAD", headers: ["via": via.appended(to: nil, protocolVersion: "HTTP/1.1")],
            timeout: configuration.limits.upstreamTimeout)
        guard let response = try? await configuration.passthroughLoader.load(head), response.statusCode == 200 else {
            return nil
        }
        return response.header("content-length").flatMap { Int($0) }
    }

    private func imageReply(
        _ request: HTTPRequest, image: ImageDataResponse, body: Data, format: ImageFormat, transcoded: Bool
    ) -> Reply {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: format.mimeType)
        headers.add(name: "Vary", value: varyFields)
        for name in ["Cache-Control", "Expires", "Last-Modified"] {
            if let value = image.headers[name.lowercased()] { headers.add(name: name, value: value) }
        }
        let etag = TransformedEntityTag.make(
            cacheKey: image.cacheKey, fetchedURL: image.fetchedURL.absoluteString, deliveredFormat: format.rawValue,
            upstreamETag: image.headers["etag"], upstreamLastModified: image.headers["last-modified"],
            source: image.data)
        headers.add(name: "ETag", value: etag)
        if let ifNoneMatch = request.headers["If-None-Match"], EntityTag.ifNoneMatch(ifNoneMatch, matches: etag) {
            headers.remove(name: "Content-Type")
            return Reply(response: HTTPResponse(status: .notModified, headers: headers), outcome: .notModified)
        }
        let outcome: Outcome =
            image.isFallback ? .fallback : transcoded ? .transcoded : format == .webp ? .webp : .untouched
        return Reply(response: HTTPResponse(status: .ok, headers: headers, body: .data(body)), outcome: outcome)
    }

    /// 502 saying what failed in words any client may see — the same text
    /// for every network failure (refused, unreachable, timed out, broken),
    /// so that nothing about the upstream's network shows, and never a URL,
    /// a credential or the loader's message; those go to the log.
    func upstreamFailure(_ error: DataLoadingError, url: String) -> Reply {
        log("upstream failure (\(error.kind)): \(url): \(error.message)")
        let reason: String
        switch error.kind {
        case .tooLarge:
            reason =
                "the upstream's answer is larger than the bridge's limit "
                + "(\(configuration.limits.maxPassthroughBodyBytes) bytes)"
        case .cancelled: reason = "the upstream request was cancelled"
        default: reason = Self.upstreamUnavailable
        }
        return Reply(response: .text(.badGateway, reason), outcome: .error)
    }

    /// The 502 text of every network failure.
    static let upstreamUnavailable = "the bridge could not get an answer from the upstream"

    /// Writes `text` to the configured log, credentials redacted and control
    /// bytes escaped.
    func log(_ text: @autoclosure () -> String) {
        guard let log = configuration.log else { return }
        log(LogText.line(text()))
    }
}

extension ClientDecision {
    /// Whether the client is to get WebP (rather than a transcode or the original).
    fileprivate var servesWebP: Bool {
        if case .serveWebP = self { return true }
        return false
    }
}
