// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import WebKit
import WebPBridge
import WebPBridgeUI
import WebViewBridge

/// A `WKWebView` whose images come from the app's pipeline: the page names each image the rules
/// rewrite in the custom scheme (`webp-bridge-https://img.example.com/a.jpg`), and the scheme
/// handler answers it with the variant from the same pipeline and cache as the native views (the
/// original when the variant fails). In Low Data Mode its images are fetched with `Save-Data: on`,
/// as the native views' are.
@MainActor
final class ArticleWebView {
    let webView: WKWebView
    private let handler: WebPBridgeSchemeHandler
    private let rewriter: Rewriter
    private let lowDataMode: Task<Void, Never>

    init(pipeline: ImagePipeline, rewriter: Rewriter) {
        let imageBridge = ImageBridge(pipeline: pipeline)
        lowDataMode = Task { await imageBridge.follow(NWPathMonitorConditions()) }
        handler = WebPBridgeSchemeHandler(bridge: WebViewSchemeBridge(imageBridge: imageBridge))
        let configuration = WKWebViewConfiguration()
        handler.register(on: configuration)  // before the web view is made: WebKit copies the configuration
        webView = WKWebView(frame: .zero, configuration: configuration)
        self.rewriter = rewriter
    }

    deinit { lowDataMode.cancel() }

    func show(_ html: String, pageURL: URL) {
        let page = HTMLRewriter(configuration: .init(rewriter: rewriter, baseURL: pageURL, scheme: .standard))
        webView.loadHTMLString(page.rewrite(html), baseURL: pageURL)
    }
}
