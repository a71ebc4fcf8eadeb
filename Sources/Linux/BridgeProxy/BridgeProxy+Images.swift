import Foundation
import HTTPServer
import WebPBridge

extension BridgeProxy {
    /// The image path: the core's finished answer to `plan` as an HTTP response.
    func serveImage(_ request: HTTPRequest, plan: DeliveryPlan) async -> (Reply, ImageDataResponse?) {
        let delivery = await imageBridge.deliver(plan)
        return (reply(to: request, delivery), delivery.image)
    }

    /// The image path's answer from the pipeline's data cache alone (see
    /// ``ImageBridge/cachedDelivery(for:)``), or `nil`.
    func cachedImageReply(_ request: HTTPRequest, plan: DeliveryPlan) -> (Reply, ImageDataResponse)? {
        guard let delivery = imageBridge.cachedDelivery(for: plan), let image = delivery.image else { return nil }
        return (reply(to: request, delivery), image)
    }

    /// `delivery`'s answer as an HTTP response. The core made every
    /// decision; what is the proxy's own: the delivery diagnostic on an
    /// image answer (its clients are not told the upstream's URLs), a
    /// relayed `Location` moved onto the bridge in reverse mode, a `HEAD`'s
    /// declared length, the log lines and the metrics.
    private func reply(to request: HTTPRequest, _ delivery: Delivery) -> Reply {
        record(delivery)
        let answer = delivery.answer
        var headers = answer.fields
        var body: HTTPResponse.Body = .data(answer.body)
        var upstreamBytes: Int? = delivery.networkBytes + delivery.relayedBytes
        switch delivery.content {
        case .image, .notModified:
            headers.add(name: BridgeDiagnosticHeader.delivery, value: delivery.outcome.rawValue)
            if case .notModified = delivery.content { body = .empty }
        case .original(let reason, _):
            log("original handed over: \(delivery.originalURL.absoluteString): \(reason)")
            if let redirects, let location = headers["Location"] {
                headers["Location"] = redirects.rewrite(location, bridgeHost: request.headers["Host"])
            }
            body = relayedBody(answer, isHEAD: request.method == .head)
        case .upstreamFailure(let error, let url):
            log("upstream failure (\(error.kind)): \(url): \(error.message)")
            upstreamBytes = nil
        case .invalidUpstreamStatus(let status):
            log("upstream sent an invalid status \(status): \(delivery.originalURL.absoluteString)")
        case .cancelled:
            upstreamBytes = nil
        case .redirect, .overloaded:
            break
        }
        return Reply(
            response: HTTPResponse(status: HTTPStatus(code: answer.statusCode), headers: headers, body: body),
            outcome: Outcome(delivery.outcome), upstreamBytes: upstreamBytes)
    }

    /// A relayed answer's body; for `HEAD`, the upstream's declared length
    /// without holding the bytes (the server sends a `HEAD` response's
    /// `Content-Length` from the body it would send, and never reads zero
    /// pages it is not sending).
    func relayedBody(_ answer: DeliveryAnswer, isHEAD: Bool) -> HTTPResponse.Body {
        guard isHEAD else { return answer.body.isEmpty ? .empty : .data(answer.body) }
        return (1...configuration.limits.maxPassthroughBodyBytes).contains(answer.contentLength)
            ? .data(Data(count: answer.contentLength)) : .empty
    }

    /// Counts what the pipeline fetched, the original relayed, and the transcode's time.
    private func record(_ delivery: Delivery) {
        if let image = delivery.image {
            recordImageSource(image.source)
            // A cache hit costs nothing upstream: no counter to touch on the hot path.
            if image.networkBytes > 0 { recordUpstreamBytes(image.networkBytes, path: .image) }
            if image.isFallback { recordOriginalBytes(image.data.count) }
        }
        if case .original = delivery.content {
            recordUpstreamBytes(delivery.relayedBytes, path: .passthrough)
            // An original the bridge declined to transform, after fetching its image.
            if delivery.image != nil { recordOriginalBytes(delivery.relayedBytes) }
        }
        if let seconds = delivery.transcodeSeconds { recordTranscode(seconds: seconds) }
    }

    /// 502 saying what failed in the core's words (``Delivery/upstreamFailureReason(_:limits:)``):
    /// the same text for every network failure, never a URL, a credential
    /// or the loader's message; those go to the log.
    func upstreamFailure(_ error: DataLoadingError, url: String) -> Reply {
        log("upstream failure (\(error.kind)): \(url): \(error.message)")
        let reason = Delivery.upstreamFailureReason(error, limits: imageBridge.configuration.relay.limits)
        return Reply(response: .text(.badGateway, reason), outcome: .error)
    }

    /// Writes `text` to the configured log, credentials redacted and control
    /// bytes escaped.
    func log(_ text: @autoclosure () -> String) {
        guard let log = configuration.log else { return }
        log(LogText.line(text()))
    }
}
