// Apple platforms only (WebKit): compiled where `canImport(WebKit)` holds, built by
// .github/workflows/apple.yml, never on the Linux machine this project is developed on.
// A thin adapter: it translates WKURLSchemeTask to SchemeRequest and the answer back; every
// decision is in WebViewSchemeBridge, which the Linux tests cover.
#if canImport(WebKit)
    import Foundation
    import WebPBridge
    public import WebKit

    /// Serves a ``WebViewScheme``'s URLs (`webp-bridge-https://…`) to a
    /// `WKWebView` from the app's image path, so the web view and the native
    /// views share one pipeline and one cache.
    ///
    /// ```swift
    /// let handler = WebPBridgeSchemeHandler(bridge: WebViewSchemeBridge(imageBridge: imageBridge))
    /// handler.register(on: webViewConfiguration)   // before creating the WKWebView
    /// ```
    @MainActor
    public final class WebPBridgeSchemeHandler: NSObject, WKURLSchemeHandler {
        /// Where every request is answered.
        public let bridge: WebViewSchemeBridge
        /// Loads in flight, so a stopped task is cancelled and never called again.
        private var loads: [ObjectIdentifier: Task<Void, Never>] = [:]

        public init(bridge: WebViewSchemeBridge) {
            self.bridge = bridge
        }

        /// Registers this handler for both of the bridge's schemes.
        public func register(on configuration: WKWebViewConfiguration) {
            for scheme in bridge.scheme.schemes {
                configuration.setURLSchemeHandler(self, forURLScheme: scheme)
            }
        }

        public func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
            guard let url = urlSchemeTask.request.url else {
                urlSchemeTask.didFailWithError(URLError(.badURL))
                return
            }
            let request = SchemeRequest(
                method: urlSchemeTask.request.httpMethod ?? "GET", url: url,
                fields: HTTPFieldList(foundationHeaderFields: urlSchemeTask.request.allHTTPHeaderFields ?? [:]))
            let key = ObjectIdentifier(urlSchemeTask)
            loads[key] = Task { [bridge] in
                let answer = await bridge.respond(to: request)
                // WebKit forbids calling a task after it was stopped.
                guard loads.removeValue(forKey: key) != nil else { return }
                switch answer {
                case .response(let response):
                    guard
                        let http = HTTPURLResponse(
                            url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1",
                            headerFields: response.fields.foundationHeaderFields)
                    else {
                        urlSchemeTask.didFailWithError(URLError(.badServerResponse))
                        return
                    }
                    urlSchemeTask.didReceive(http)
                    if !response.body.isEmpty { urlSchemeTask.didReceive(response.body) }
                    urlSchemeTask.didFinish()
                case .failed(let failure):
                    urlSchemeTask.didFailWithError(
                        URLError(failure.code, userInfo: [NSLocalizedDescriptionKey: failure.description]))
                }
            }
        }

        public func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {
            loads.removeValue(forKey: ObjectIdentifier(urlSchemeTask))?.cancel()
        }
    }
#endif
