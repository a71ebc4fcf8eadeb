import Foundation
import HTTPFields
public import ImageDelivery
import ImagePipeline
public import URLRewriting

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
/// Every decision is here and portable; `WebPBridgeSchemeHandler` (WebKit)
/// only translates `WKURLSchemeTask`s to ``SchemeRequest`` and back.
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
        let facts = DeliveryRequest(
            method: request.method, url: networkURL, accept: request.fields.combinedValue(for: "Accept"),
            userAgent: request.fields["User-Agent"], cacheControl: request.fields.values(for: "Cache-Control"),
            ifNoneMatch: request.fields.combinedValue(for: "If-None-Match"))
        switch imageBridge.route(facts) {
        case .image(let decision):
            let delivery: Delivery
            if let cached = imageBridge.cachedDelivery(for: facts, decision: decision) {
                delivery = cached
            } else {
                delivery = await imageBridge.deliver(facts, decision: decision, redirects: .follow)
            }
            return await answer(delivery, for: facts)
        case .passThrough(let vary):
            guard namesHost(networkURL) else {
                return .response(.status(403, "\(networkURL.host ?? "this host") is not a host the rules name"))
            }
            return await fetchAsIs(facts, accept: request.fields.combinedValue(for: "Accept"), vary: vary)
        }
    }

    /// Whether a rule names `url`'s host (and scheme): such URLs may be
    /// fetched as they are even when not rewritten.
    func namesHost(_ url: URL) -> Bool {
        guard let rewriter = imageBridge.configuration.rewriter else { return false }
        switch rewriter.rewrite(url).reason.kind {
        case .noRuleForHost, .notAbsolute, .schemeNotMatched: return false
        default: return true
        }
    }

    private func answer(_ delivery: Delivery, for facts: DeliveryRequest) async -> SchemeAnswer {
        switch delivery.content {
        case .image(let body, _):
            var fields = delivery.fields
            fields.append(contentsOf: delivery.diagnosticFields)
            fields.add(name: "Content-Length", value: String(body.count))
            return .response(SchemeResponse(statusCode: 200, fields: fields, body: facts.isHEAD ? Data() : body))
        case .notModified:
            var fields = delivery.fields
            fields.append(contentsOf: delivery.diagnosticFields)
            return .response(SchemeResponse(statusCode: 304, fields: fields))
        case .original(_, let refusesWebP):
            let accept = refusesWebP ? AcceptHeader.refusingWebP(facts.accept) : facts.accept
            return await fetchAsIs(facts, accept: accept, vary: delivery.vary)
        case .redirect(let redirect):
            // Followed in the core; a hop its redirect policy refuses ends here.
            return .response(.status(502, "the upstream redirected to \(redirect.location.absoluteString)"))
        case .overloaded(let seconds):
            return .response(.status(503, "the transcode queue is full", fields: ["Retry-After": String(seconds)]))
        case .cancelled:
            return .failed(.cancelled)
        case .upstreamFailure(let error, _):
            return .failed(SchemeFailure(error))
        }
    }

    /// The URL exactly as its upstream answers it (bounded by the pipeline's
    /// body limit), with the relayable fields only.
    private func fetchAsIs(_ facts: DeliveryRequest, accept: String?, vary: String?) async -> SchemeAnswer {
        let pipeline = imageBridge.configuration.pipeline.configuration
        var headers = HTTPFieldList()
        if let accept { headers["Accept"] = accept }
        if let userAgent = facts.userAgent { headers["User-Agent"] = userAgent }
        let request = DataRequest(
            url: facts.url, method: facts.method, headers: headers, timeout: pipeline.requestTimeout,
            maxBodyBytes: pipeline.maxBodyBytes)
        do {
            let response = try await pipeline.dataLoader.load(request)
            if (300..<400).contains(response.statusCode) {
                // A web view cannot be told of a redirect from a scheme handler.
                return .response(.status(502, "the upstream answered \(response.statusCode) (redirects not followed)"))
            }
            var fields = HopByHopFields.responseFieldsToForward(response.headers)
            if let vary { fields["Vary"] = VaryHeader.merging(vary, into: fields.combinedValue(for: "Vary")) }
            fields["Content-Length"] = String(response.body.count)
            return .response(
                SchemeResponse(
                    statusCode: response.statusCode, fields: fields, body: facts.isHEAD ? Data() : response.body))
        } catch {
            return .failed(SchemeFailure(error))
        }
    }
}
