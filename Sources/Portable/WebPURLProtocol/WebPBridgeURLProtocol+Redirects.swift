import WebPBridge

#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Redirects of claimed requests.
///
/// The pipeline fetches for the bridge with redirects reported, not
/// followed (``RedirectHandling/report``). A redirect goes to the client as
/// a redirect, with the client's request re-pointed at the resolved
/// `Location`: its headers kept and the bridge's marker property removed, so
/// the new request is claimed again when a rule rewrites it (and goes to the
/// network untouched when none does). How the client learns of it depends on
/// the Foundation underneath:
///
/// - Apple platforms: `urlProtocol(_:wasRedirectedTo:redirectResponse:)`,
///   then the load ends without a body (with `NSUserCancelledError`, which
///   the URL loading system ignores after a redirect, as Apple's
///   CustomHTTPProtocol sample does). URLSession then asks its delegate's
///   `willPerformHTTPRedirection` and starts a new load; its own redirect
///   limit ends a loop.
/// - Linux: swift-corelibs-foundation's URLProtocol client stops the process
///   in `wasRedirectedTo` ("doesn't currently handle redirects directly"),
///   and its URLSession follows redirects only inside its own HTTP protocol.
///   So the bridge follows for the client, as URLSession would: the
///   re-pointed request is claimed again or fetched as it is, and the
///   client's response carries the final URL. Only hops that the pipeline's
///   ``RedirectPolicy`` allows are followed: a redirect to anywhere else
///   reaches the client as the redirect response itself (its status and
///   `Location`), and its target is never fetched. More than
///   ``WebPBridgeURLProtocol/maxRedirects`` in a row end the load with
///   `URLError(.httpTooManyRedirects)`.
extension WebPBridgeURLProtocol {
    /// The most redirects followed for one client request where the bridge
    /// follows them itself (Linux); 16, as URLSession allows on Apple platforms.
    public static let maxRedirects = 16

    /// Where a load is in a chain of redirects.
    struct RedirectChain {
        /// The request being loaded: the client's, re-pointed by each redirect.
        var request: URLRequest
        /// The binding and plan that claim `request`; `nil` when no
        /// binding claims a redirect's target.
        var claim: (Binding, DeliveryPlan)?
        /// The binding that claimed the last claimed request: its loader and
        /// limits fetch targets that no binding claims.
        var lastBinding: Binding
        /// Redirects so far.
        var count = 0

        init(request: URLRequest, claim: (Binding, DeliveryPlan)) {
            self.request = request
            self.claim = claim
            self.lastBinding = claim.0
        }

        var loader: any DataLoading { lastBinding.pipeline.configuration.dataLoader }
    }

    /// Reports the redirect of `chain.request` to `next` to the client.
    /// - Returns: Whether the load goes on with the updated `chain` (on
    ///   Linux, where the bridge follows redirects for the client, within
    ///   the last binding's ``RedirectPolicy``).
    func redirect(_ chain: inout RedirectChain, to next: URLRequest, status: Int) -> Bool {
        #if canImport(FoundationNetworking)
            let policy = chain.lastBinding.pipeline.configuration.redirectPolicy
            guard let location = next.url, policy.allows(location) else {
                deliverRedirect(from: chain.request.url, to: next.url, status: status)
                return false
            }
            chain.count += 1
            guard chain.count <= Self.maxRedirects else {
                let from = self.request.url?.absoluteString ?? "-"
                let to = next.url?.absoluteString ?? "-"
                let error = URLError(
                    .httpTooManyRedirects,
                    userInfo: [
                        NSURLErrorFailingURLErrorKey: next.url as Any,
                        NSLocalizedDescriptionKey:
                            "\(from): more than \(Self.maxRedirects) redirects"
                            + " (the last one, HTTP \(status), to \(to))",
                    ])
                send { $0.urlProtocol(self, didFailWithError: error) }
                return false
            }
            chain.request = next
            chain.claim = Self.claim(next)
            if let (binding, _) = chain.claim { chain.lastBinding = binding }
            return true
        #else
            guard let url = chain.request.url, let location = next.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1",
                    headerFields: ["Location": location.absoluteString, "Content-Length": "0"])
            else { return false }
            send { client in
                client.urlProtocol(self, wasRedirectedTo: next, redirectResponse: response)
                client.urlProtocol(
                    self, didFailWithError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
            }
            return false
        #endif
    }

    /// The redirect itself as the client's final response: the bridge does
    /// not follow it (its target is outside the policy).
    private func deliverRedirect(from url: URL?, to location: URL?, status: Int) {
        guard let url,
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: ["Location": location?.absoluteString ?? "", "Content-Length": "0"])
        else {
            send { $0.urlProtocol(self, didFailWithError: URLError(.badServerResponse)) }
            return
        }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocolDidFinishLoading(self)
        }
    }

    /// `request` re-pointed at `location`: its headers kept, the bridge's
    /// marker property removed, so the new request is claimed again when a
    /// rule rewrites it.
    static func redirectedRequest(_ request: URLRequest, to location: URL) -> URLRequest {
        var redirected = request
        redirected.url = location
        guard property(forKey: handledKey, in: redirected) != nil,
            let mutable = (redirected as NSURLRequest).mutableCopy() as? NSMutableURLRequest
        else { return redirected }
        removeProperty(forKey: handledKey, in: mutable)
        return mutable as URLRequest
    }

    /// A request fetched as it is with the client's headers, as URLSession
    /// would have fetched it: a redirect's target that no binding claims
    /// (where the bridge follows redirects itself).
    func passThrough(_ request: URLRequest, loader: any DataLoading, binding: Binding) async -> Step {
        guard let url = request.url else {
            send { $0.urlProtocol(self, didFailWithError: URLError(.badURL)) }
            return .finished
        }
        let configuration = binding.pipeline.configuration
        let dataRequest = DataRequest(
            url: url, method: request.httpMethod ?? "GET",
            headers: HTTPFieldList(foundationHeaderFields: request.allHTTPHeaderFields ?? [:]),
            timeout: configuration.requestTimeout, maxBodyBytes: configuration.maxBodyBytes)
        let response: DataResponse
        do {
            response = try await loader.load(dataRequest)
        } catch {
            let failure = URLError(
                error.urlErrorCode,
                userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: error.message])
            send { $0.urlProtocol(self, didFailWithError: failure) }
            return .finished
        }
        if Task.isCancelled { return .finished }
        if let location = response.redirectLocation {
            return .redirected(to: Self.redirectedRequest(request, to: location), status: response.statusCode)
        }
        var headers = HopByHopFields.responseFieldsToForward(response.headers)
        headers["Content-Length"] = String(response.body.count)
        guard
            let http = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1",
                headerFields: headers.foundationHeaderFields)
        else { return .finished }
        let body = response.body
        send { client in
            client.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty { client.urlProtocol(self, didLoad: body) }
            client.urlProtocolDidFinishLoading(self)
        }
        return .finished
    }
}
