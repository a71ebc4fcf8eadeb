import HTTPFields
import ImageDelivery
import ImagePipeline

#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

extension WebPBridgeURLProtocol {
    /// How one step of a load ended.
    enum Step {
        /// A response or an error reached the client (or the client stopped
        /// loading): nothing more to do.
        case finished
        /// The upstream redirected the request; `request` is the client's
        /// request re-pointed at the new location.
        case redirected(to: URLRequest, status: Int)
    }

    /// Loads `request` through the binding's pipeline and delivers the image,
    /// an HTTP error status or a `URLError`; a redirect is reported (see
    /// `redirect(_:to:status:)`).
    func load(_ request: URLRequest, decision: ClientDecision, binding: Binding) async {
        var chain = RedirectChain(request: request, claim: (binding, decision))
        while !Task.isCancelled {
            let step: Step
            if let (binding, decision) = chain.claim {
                step = await loadImage(chain.request, decision: decision, binding: binding)
            } else {
                step = await passThrough(chain.request, loader: chain.loader, binding: chain.lastBinding)
            }
            guard case .redirected(let next, let status) = step else { return }
            guard redirect(&chain, to: next, status: status) else { return }
        }
    }

    /// One claimed request through the image path, redirects reported: the
    /// core's ``Delivery`` sent through the client.
    private func loadImage(_ request: URLRequest, decision: ClientDecision, binding: Binding) async -> Step {
        guard let facts = Self.facts(of: request, binding: binding) else {
            send { $0.urlProtocol(self, didFailWithError: URLError(.badURL)) }
            return .finished
        }
        let delivery = await binding.imageBridge.deliver(facts, decision: decision, redirects: .report)
        if Task.isCancelled { return .finished }
        switch delivery.content {
        case .image(let body, _):
            deliver(delivery, status: 200, body: facts.isHEAD ? nil : body)
        case .notModified:
            deliver(delivery, status: 304, body: nil)
        case .original(_, let refusesWebP):
            // The original exactly as the upstream answers it, as URLSession
            // would have fetched it, with the image path's Vary.
            var original = request
            if refusesWebP {
                original.setValue(
                    AcceptHeader.refusingWebP(request.value(forHTTPHeaderField: "Accept")), forHTTPHeaderField: "Accept"
                )
            }
            return await passThrough(
                original, loader: binding.pipeline.configuration.dataLoader, binding: binding, handover: delivery)
        case .redirect(let redirect):
            return .redirected(
                to: Self.redirectedRequest(request, to: redirect.location), status: redirect.statusCode)
        case .overloaded(let seconds):
            deliverStatus(503, for: facts.url, fields: ["Retry-After": String(seconds)])
        case .cancelled:
            send { $0.urlProtocol(self, didFailWithError: URLError(.cancelled)) }
        case .upstreamFailure(let error, let url):
            let failure = URLError(
                error.urlErrorCode,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: facts.url, NSLocalizedDescriptionKey: "\(url): \(error.message)",
                ])
            send { $0.urlProtocol(self, didFailWithError: failure) }
        }
        return .finished
    }

    /// An image answer (`200` with `body`, or `304`): the core's fields, the
    /// length, and the diagnostics of where the bytes came from.
    private func deliver(_ delivery: Delivery, status: Int, body: Data?) {
        var fields = delivery.fields
        if case .image(let bytes, _) = delivery.content { fields["Content-Length"] = String(bytes.count) }
        for field in delivery.diagnosticFields { fields[field.name] = field.value }
        guard
            let response = HTTPURLResponse(
                url: delivery.originalURL, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: fields.foundationHeaderFields)
        else {
            send { $0.urlProtocol(self, didFailWithError: URLError(.badServerResponse)) }
            return
        }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if let body, !body.isEmpty { client.urlProtocol(self, didLoad: body) }
            client.urlProtocolDidFinishLoading(self)
        }
    }

    /// A bodiless answer with `status` and `fields` (the overloaded `503`).
    private func deliverStatus(_ status: Int, for url: URL, fields: HTTPFieldList) {
        var fields = fields
        fields["Content-Length"] = "0"
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields.foundationHeaderFields)
        else { return }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocolDidFinishLoading(self)
        }
    }
}
