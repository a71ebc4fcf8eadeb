import ConcurrencySupport
import Foundation
import HTTPFields
import HTTPServer
import ImageDelivery
import ImagePipeline

extension BridgeProxy {
    /// The image path: the core's ``ImageBridge/deliver(_:decision:redirects:)``
    /// as an HTTP response — the image, a 304, the original passed through,
    /// a 503 when the transcode queue is full, a 502 when the upstream did
    /// not answer; with the pipeline's response it was made from.
    func serveImage(
        _ request: HTTPRequest, facts: DeliveryRequest, decision: ClientDecision
    ) async -> (Reply, ImageDataResponse?) {
        let delivery = await imageBridge.deliver(facts, decision: decision)
        return (await reply(to: request, delivery), delivery.image)
    }

    /// The image path's answer from the pipeline's data cache alone (see
    /// ``ImageBridge/cachedDelivery(for:decision:)``), or `nil`.
    func cachedImageReply(
        _ request: HTTPRequest, facts: DeliveryRequest, decision: ClientDecision
    ) -> (Reply, ImageDataResponse)? {
        guard let delivery = imageBridge.cachedDelivery(for: facts, decision: decision), let image = delivery.image
        else { return nil }
        let reply: Reply
        switch delivery.content {
        case .image(let body, _): reply = finishedReply(delivery, body: body)
        case .notModified: reply = finishedReply(delivery, body: nil)
        default: return nil
        }
        record(delivery)
        return (reply, image)
    }

    /// `delivery` as a response; the original is fetched and passed through
    /// when the core says to hand it over.
    private func reply(to request: HTTPRequest, _ delivery: Delivery) async -> Reply {
        record(delivery)
        switch delivery.content {
        case .image(let body, _):
            return finishedReply(delivery, body: body)
        case .notModified:
            return finishedReply(delivery, body: nil)
        case .original(let reason, let refusesWebP):
            log("original handed over: \(delivery.originalURL.absoluteString): \(reason)")
            var reply = await passThrough(
                request, url: delivery.originalURL, vary: delivery.vary, countsOriginal: delivery.image != nil,
                refusesWebP: refusesWebP)
            // What the pipeline fetched counts too.
            reply.upstreamBytes = (reply.upstreamBytes ?? 0) + delivery.networkBytes
            return reply
        case .redirect(let redirect):
            // Only under RedirectHandling.report, which the proxy does not ask for: pass the redirect on.
            return await passThrough(request, url: redirect.redirectedURL, vary: delivery.vary)
        case .overloaded(let seconds):
            return Reply(
                response: .text(
                    .serviceUnavailable, "the bridge is busy transcoding images; retry shortly",
                    headers: ["Retry-After": String(seconds)]),
                outcome: .overloaded, upstreamBytes: delivery.networkBytes)
        case .cancelled:
            return refusal(.serviceUnavailable, "the request was cancelled", outcome: .cancelled)
        case .upstreamFailure(let error, let url):
            return upstreamFailure(error, url: url)
        }
    }

    /// An image delivery as a response: `200` with `body`, or `304` without.
    private func finishedReply(_ delivery: Delivery, body: Data?) -> Reply {
        var headers = delivery.fields
        headers.add(name: BridgeDiagnosticHeader.delivery, value: delivery.outcome.rawValue)
        let response =
            body.map { HTTPResponse(status: .ok, headers: headers, body: .data($0)) }
            ?? HTTPResponse(status: .notModified, headers: headers)
        return Reply(response: response, outcome: Outcome(delivery.outcome), upstreamBytes: delivery.networkBytes)
    }

    /// Counts what the pipeline fetched and the transcode's time.
    private func record(_ delivery: Delivery) {
        if let image = delivery.image {
            recordImageSource(image.source)
            // A cache hit costs nothing upstream: no counter to touch on the hot path.
            if image.networkBytes > 0 { recordUpstreamBytes(image.networkBytes, path: .image) }
            if image.isFallback { recordOriginalBytes(image.data.count) }
        }
        if let seconds = delivery.transcodeSeconds { recordTranscode(seconds: seconds) }
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
        case .responseHeadTooLarge:
            let limits = configuration.limits.upstreamFieldLimits
            reason =
                "the upstream's response head is larger than the bridge's limit "
                + "(\(limits.maxCount) fields, \(limits.maxBytes) bytes)"
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
