import Foundation
import TestTraits
import Testing
import WebPBridge

/// Issue 28, item 8 through the HTML rewriter: a page's URL with a raw space
/// or non-ASCII is rewritten as a browser reads it, from the WHATWG
/// serialisation, the same on every OS version (before iOS 17 `URL(string:)`
/// refused such text, so these images were left unrewritten there).
@Suite(.timeLimit(.suiteBound)) struct RawURLTextTests {
    let suffix = HTMLFixture.suffix

    static let pages: [(String, String)] = [
        (
            #"<img src="/photos/a b.jpg">"#,
            #"<img src="https://img.example.com/photos/a%20b.jpg\#(HTMLFixture.suffix)">"#
        ),
        (
            #"<img src="照片.jpg">"#,
            #"<img src="https://img.example.com/news/%E7%85%A7%E7%89%87.jpg\#(HTMLFixture.suffix)">"#
        ),
        (#"<img src="{1}^2.png">"#, #"<img src="https://img.example.com/news/%7B1%7D%5E2.png\#(HTMLFixture.suffix)">"#),
        (
            #"<img src=" https://img.example.com/a b/c d.jpg ">"#,
            #"<img src=" https://img.example.com/a%20b/c%20d.jpg\#(HTMLFixture.suffix) ">"#
        ),
        // The standard keeps `|` as written, which Foundation cannot hold byte
        // for byte on any version: the URL stays as the page wrote it.
        (#"<img src="/a|b.jpg">"#, #"<img src="/a|b.jpg">"#),
        // Non-ASCII in a query is encoded in the page's encoding: left alone.
        (#"<img src="/a.jpg?名">"#, #"<img src="/a.jpg?名">"#),
    ]

    @Test(arguments: pages)
    func rawTextIsRewrittenAsABrowserReadsIt(_ page: String, _ expected: String) {
        #expect(HTMLFixture.htmlRewriter().rewrite(page) == expected)
    }

    /// In the web view's scheme the page names the original, as Foundation
    /// holds it on every version.
    @Test func rawTextInTheWebViewScheme() {
        let rewriter = HTMLFixture.htmlRewriter(scheme: .standard)
        #expect(
            rewriter.rewrite(#"<img src="/photos/a b.jpg"><img src="图.png">"#)
                == #"<img src="webp-bridge-https://img.example.com/photos/a%20b.jpg">"#
                + #"<img src="webp-bridge-https://img.example.com/news/%E5%9B%BE.png">"#)
    }

    /// A document base with a raw space is adopted as a browser adopts it.
    @Test func aDocumentBaseWithASpace() {
        let rewriter = HTMLFixture.htmlRewriter(base: nil)
        let page = #"<base href="https://img.example.com/my photos/"><img src="a.jpg">"#
        #expect(rewriter.rewrite(page).hasSuffix(#"<img src="https://img.example.com/my%20photos/a.jpg\#(suffix)">"#))
    }
}
