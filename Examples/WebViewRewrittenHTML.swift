// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import WebKit
import WebPBridge

/// A page shown in a `WKWebView` with its image URLs rewritten to the CDN's variants: WebKit
/// (WebP since iOS 14) fetches and decodes them itself, with its own cache. Nothing else in the
/// page changes, byte for byte.
@MainActor
func showArticle(_ html: String, pageURL: URL, in webView: WKWebView, rewriter: Rewriter) {
    let rewritten = HTMLRewriter(rewriter: rewriter, baseURL: pageURL).rewrite(html)
    webView.loadHTMLString(rewritten, baseURL: pageURL)
}
