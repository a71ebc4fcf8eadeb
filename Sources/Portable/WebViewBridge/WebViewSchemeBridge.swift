import Foundation
public import WebPBridge

/// Answers a web view's requests for the custom scheme of a
/// ``WebViewScheme`` (`webp-bridge-https://…`) from the app's image path:
/// the same ``ImageBridge``, pipeline and cache its native views use.
///
/// A page names an image in the custom scheme, typically by the HTML
/// rewriter: `webp-bridge-https://img.example.com/a.jpg` for
/// `https://img.example.com/a.jpg`. The answer is what the bridge core gives
/// that client for that URL: the variant the rules name (the web view shows
/// WebP since iOS 14), cached under the URL fetched, falling back to the
/// original when the variant fails. A URL the rules do not rewrite is
/// fetched as it is, but only on a host the rules name: the handler is never
/// an open fetcher for whatever a page asks.
///
/// The core makes every decision and maps every failure; this bridge only
/// checks the scheme, translates the request and turns the core's answer
/// into a ``SchemeAnswer``. `WebPBridgeSchemeHandler` (WebKit) only
/// translates `WKURLSchemeTask`s to ``SchemeRequest`` and back.
public final class WebViewSchemeBridge: Sendable {
    /// The image path requests go through.
    public let imageBridge: ImageBridge
    /// The custom schemes this bridge answers.
    public let scheme: WebViewScheme

    /// Creates a bridge over `imageBridge` for `scheme`'s two schemes.
    public init(imageBridge: ImageBridge, scheme: WebViewScheme = .standard) {
        self.imageBridge = imageBridge
        self.scheme = scheme
    }

    /// The answer to `request`. Never throws; waits at most for the
    /// pipeline's timeouts and the transcode queue.
    public func respond(to request: SchemeRequest) async -> SchemeAnswer {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .response(.status(405, "only GET and HEAD", fields: ["Allow": "GET, HEAD"]))
        }
        guard let networkURL = scheme.networkURL(for: request.url) else {
            return .response(.status(400, "not a \(scheme.schemes.joined(separator: " or ")) URL with a host"))
        }
        let imageRequest = DeliveryRequest(
            method: request.method, url: networkURL, fields: Self.forwardedFields(request.fields))
        switch imageBridge.route(imageRequest) {
        case .image(let plan):
            let delivery: Delivery
            if let cached = imageBridge.cachedDelivery(for: plan) {
                delivery = cached
            } else {
                delivery = await imageBridge.deliver(plan)
            }
            return Self.answer(delivery, isHEAD: imageRequest.isHEAD)
        case .passThrough(let vary, let upstreamAccept):
            guard imageBridge.namesHost(networkURL) else {
                return .response(.status(403, "\(networkURL.host ?? "this host") is not a host the rules name"))
            }
            return Self.answer(
                await imageBridge.relay(imageRequest, vary: vary, upstreamAccept: upstreamAccept),
                isHEAD: imageRequest.isHEAD)
        }
    }

    /// The fields of the web view's request the upstream is sent: its
    /// end-to-end fields (the core drops hop-by-hop ones), without those
    /// that describe the page's custom-scheme origin rather than a network
    /// one — `Origin` and `Referer` name `webp-bridge-https://…`, which no
    /// upstream knows (a CDN's hotlink rule would refuse it, and it tells
    /// the upstream nothing true) — and without `Cookie`, which WebKit keeps
    /// per custom scheme, not per network host: a cookie the page set would
    /// otherwise reach a host that never set it.
    static func forwardedFields(_ fields: HTTPFieldList) -> HTTPFieldList {
        var forwarded = fields
        forwarded.removeAll { field in
            ["origin", "referer", "cookie"].contains(field.name.lowercased())
        }
        return forwarded
    }

    /// The core's answer as a scheme answer. What is the web view's own: a
    /// network failure or a cancellation as a ``SchemeFailure``, and a
    /// redirect — which a scheme handler cannot pass on — as a `502`.
    static func answer(_ delivery: Delivery, isHEAD: Bool) -> SchemeAnswer {
        switch delivery.content {
        case .cancelled:
            return .failed(.cancelled)
        case .upstreamFailure(let error, _):
            return .failed(SchemeFailure(error))
        case .redirect(let redirect):
            return .response(.status(502, Delivery.redirectNotFollowedReason(status: redirect.statusCode)))
        case .original(_, let relayed) where (300..<400).contains(relayed.statusCode):
            return .response(.status(502, Delivery.redirectNotFollowedReason(status: relayed.statusCode)))
        case .image, .notModified:
            let answer = delivery.answer
            var fields = answer.fields
            fields.append(contentsOf: delivery.diagnosticFields)
            fields.add(name: "Content-Length", value: String(answer.contentLength))
            return .response(
                SchemeResponse(statusCode: answer.statusCode, fields: fields, body: isHEAD ? Data() : answer.body))
        case .original, .overloaded, .invalidUpstreamStatus:
            let answer = delivery.answer
            var fields = answer.fields
            fields.add(name: "Content-Length", value: String(answer.contentLength))
            return .response(
                SchemeResponse(statusCode: answer.statusCode, fields: fields, body: isHEAD ? Data() : answer.body))
        }
    }
}
