import WebPBridge

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

    /// Loads `request` through the binding's image path and delivers its
    /// answer, or a `URLError`; a redirect is reported (see
    /// `redirect(_:to:status:)`).
    func load(_ request: URLRequest, plan: DeliveryPlan, binding: Binding) async {
        var chain = RedirectChain(request: request, claim: (binding, plan))
        while !Task.isCancelled {
            let step: Step
            if let (binding, plan) = chain.claim {
                step = await loadImage(chain.request, plan: plan, binding: binding)
            } else {
                step = await passThrough(chain.request, loader: chain.loader, binding: chain.lastBinding)
            }
            guard case .redirected(let next, let status) = step else { return }
            guard redirect(&chain, to: next, status: status) else { return }
        }
    }

    /// One claimed request through the image path, redirects reported: the
    /// core's finished answer sent through the client. What is the URL
    /// protocol's own: a network failure or a cancellation as a `URLError`,
    /// and a redirect — reported by the pipeline or relayed with the
    /// original — as a redirect of the client's request.
    private func loadImage(_ request: URLRequest, plan: DeliveryPlan, binding: Binding) async -> Step {
        let delivery = await binding.imageBridge.deliver(plan)
        if Task.isCancelled { return .finished }
        switch delivery.content {
        case .redirect(let redirect):
            return .redirected(
                to: Self.redirectedRequest(request, to: redirect.location), status: redirect.statusCode)
        case .original(_, let relayed):
            if let location = relayed.redirectLocation {
                return .redirected(to: Self.redirectedRequest(request, to: location), status: relayed.statusCode)
            }
        case .cancelled:
            send { $0.urlProtocol(self, didFailWithError: URLError(.cancelled)) }
            return .finished
        case .upstreamFailure(let error, let url):
            let failure = URLError(
                error.urlErrorCode,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: delivery.originalURL,
                    NSLocalizedDescriptionKey: "\(url): \(error.message)",
                ])
            send { $0.urlProtocol(self, didFailWithError: failure) }
            return .finished
        case .image, .notModified, .overloaded, .invalidUpstreamStatus:
            break
        }
        deliver(delivery, isHEAD: plan.request.isHEAD)
        return .finished
    }

    /// The core's answer with its length and the diagnostics of where the
    /// bytes came from.
    private func deliver(_ delivery: Delivery, isHEAD: Bool) {
        let answer = delivery.answer
        var fields = answer.fields
        fields["Content-Length"] = String(answer.contentLength)
        for field in delivery.diagnosticFields { fields[field.name] = field.value }
        guard
            let response = HTTPURLResponse(
                url: delivery.originalURL, statusCode: answer.statusCode, httpVersion: "HTTP/1.1",
                headerFields: fields.foundationHeaderFields)
        else {
            send { $0.urlProtocol(self, didFailWithError: URLError(.badServerResponse)) }
            return
        }
        let body = isHEAD ? Data() : answer.body
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty { client.urlProtocol(self, didLoad: body) }
            client.urlProtocolDidFinishLoading(self)
        }
    }
}
