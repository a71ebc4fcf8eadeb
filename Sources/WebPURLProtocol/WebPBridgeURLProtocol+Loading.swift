import HTTPFields
import ImageCodecs
public import ImagePipeline
import URLRewriting

#if canImport(FoundationNetworking)
    public import Foundation
    import FoundationNetworking
#else
    public import Foundation
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

    /// One claimed request through the pipeline, redirects reported.
    private func loadImage(_ request: URLRequest, decision: ClientDecision, binding: Binding) async -> Step {
        guard let url = request.url else {
            send { $0.urlProtocol(self, didFailWithError: URLError(.badURL)) }
            return .finished
        }
        let result: ImageDataResponse
        do {
            result = try await binding.pipeline.data(for: url, redirects: .report)
        } catch let error as ImagePipelineError {
            if let redirect = error.redirect {
                return .redirected(
                    to: Self.redirectedRequest(request, to: redirect.location), status: redirect.statusCode)
            } else if let status = error.httpStatus {
                deliverStatus(status, for: url)
            } else {
                send { $0.urlProtocol(self, didFailWithError: Self.urlError(for: error, url: url)) }
            }
            return .finished
        } catch {
            send { $0.urlProtocol(self, didFailWithError: URLError(.cancelled)) }
            return .finished
        }
        if Task.isCancelled { return .finished }

        let body: Data
        let contentType: String
        if case .transcode = decision {
            do {
                let output = try binding.transcoder.transcode(result.data, for: Transcoder.withoutWebP)
                body = output.data
                contentType = output.mimeType
            } catch {
                send { $0.urlProtocol(self, didFailWithError: URLError(.cannotDecodeContentData)) }
                return .finished
            }
        } else {
            body = result.data
            contentType = result.format.mimeType
        }
        var headers: [String: String] = [
            "Content-Type": contentType,
            "Content-Length": String(body.count),
            "Vary": VaryHeader.value(
                listing: binding.policy.webPSupport == .legacyAppleWebKit ? ["Accept", "User-Agent"] : ["Accept"]),
            DiagnosticHeader.fetchedURL: result.fetchedURL.absoluteString,
            DiagnosticHeader.source: result.source.rawValue,
            DiagnosticHeader.wireBytes: String(result.networkBytes),
            DiagnosticHeader.fallback: result.isFallback ? "1" : "0",
            DiagnosticHeader.cacheKey: result.cacheKey,
        ]
        for name in ["cache-control", "expires", "last-modified"] {
            if let value = result.headers[name] { headers[name.capitalizedHeaderName] = value }
        }
        guard
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { return .finished }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(self, didLoad: body)
            client.urlProtocolDidFinishLoading(self)
        }
        return .finished
    }

    /// Both the variant and the original answered with an HTTP error: the
    /// client sees that status, as it would without the bridge.
    private func deliverStatus(_ status: Int, for url: URL) {
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "0"])
        else { return }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocolDidFinishLoading(self)
        }
    }

    /// The `URLError` a plain load would have produced for a transport failure.
    static func urlError(for error: ImagePipelineError, url: URL) -> URLError {
        let code = error.loadingError.map(urlErrorCode(for:)) ?? .cannotDecodeContentData
        return URLError(
            code, userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: error.description])
    }

    /// The `URLError` code matching a loader's failure.
    public static func urlErrorCode(for error: DataLoadingError) -> URLError.Code {
        switch error.kind {
        case .timedOut: .timedOut
        case .cannotConnect: .cannotConnectToHost
        case .cancelled: .cancelled
        case .tooLarge: .dataLengthExceedsMaximum
        case .unsupportedURL: .unsupportedURL
        case .networkFailure: .networkConnectionLost
        default: .cannotDecodeContentData
        }
    }
}

extension String {
    /// `cache-control` → `Cache-Control`.
    var capitalizedHeaderName: String {
        split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}
