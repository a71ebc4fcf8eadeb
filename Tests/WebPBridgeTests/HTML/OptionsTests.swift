import Foundation
import TestTraits
import Testing
import WebPBridge

/// The rewriter's options: no base URL, the web view scheme, a reverse
/// proxy's local prefix, and the count of rewritten URLs.
@Suite(.timeLimit(.suiteBound)) struct OptionsTests {
    let suffix = HTMLFixture.suffix

    @Test func withoutABaseRelativeURLsStayAsWritten() {
        let rewriter = HTMLFixture.htmlRewriter(base: nil)
        let page = #"<img src="a.jpg"><img src="//img.example.com/b.jpg"><img src="https://img.example.com/c.jpg">"#
        #expect(
            rewriter.rewrite(page)
                == #"<img src="a.jpg"><img src="//img.example.com/b.jpg">"#
                + #"<img src="https://img.example.com/c.jpg\#(suffix)">"#)
    }

    @Test func aDocumentBaseServesWhenNoneIsGiven() {
        let rewriter = HTMLFixture.htmlRewriter(base: nil)
        let page = #"<base href="https://img.example.com/p/"><img src="a.jpg">"#
        #expect(rewriter.rewrite(page).hasSuffix(#"<img src="https://img.example.com/p/a.jpg\#(suffix)">"#))
    }

    /// The scheme handler fetches the variant itself (with the fallback), so
    /// the page names the original in the custom scheme — only for URLs the
    /// rules rewrite.
    @Test func rewrittenURLsCanBeWrittenAsOriginalsInTheWebViewScheme() {
        let rewriter = HTMLFixture.htmlRewriter(scheme: .standard)
        let page =
            #"<img src="/a.jpg" srcset="http://img.example.com/b.jpg 2x"><img src="https://www.example.org/c.jpg">"#
            + #"<img src="/d.webp">"#
        #expect(
            rewriter.rewrite(page)
                == #"<img src="webp-bridge-https://img.example.com/a.jpg" "#
                + #"srcset="webp-bridge-http://img.example.com/b.jpg 2x">"#
                + #"<img src="https://www.example.org/c.jpg"><img src="/d.webp">"#)
    }

    @Test func aLocalPrefixTurnsUpstreamVariantsIntoPaths() {
        let rewriter = HTMLFixture.htmlRewriter(
            base: URL(string: "https://img.example.com/site/index.html"), localPrefix: "https://img.example.com/site")
        let page = #"<img src="a.jpg"><img src="/elsewhere/b.jpg"><div style="background:url(c.png)">"#
        #expect(
            rewriter.rewrite(page)
                == #"<img src="/a.jpg\#(suffix)"><img src="https://img.example.com/elsewhere/b.jpg\#(suffix)">"#
                + #"<div style="background:url(/c.png\#(suffix))">"#)
    }

    @Test func theStreamCountsRewrittenURLs() {
        var stream = HTMLFixture.htmlRewriter().makeStream()
        _ = stream.rewrite(Array(#"<img src="/a.jpg" srcset="/b.jpg 1x, /c.gif 2x"><style>x{a:url(/d.jpg)"#.utf8))
        _ = stream.rewrite(Data("}</style><img src=/e.svg>".utf8))
        _ = stream.finish()
        #expect(stream.rewrittenURLCount == 3)
    }

    @Test func unquotedValuesGetTheirBreakingBytesEncoded() throws {
        // A thumbor variant has parentheses: fine in an attribute, escaped in an unquoted CSS url().
        let configuration = try RewritePreset.configuration(named: "thumbor", host: "img.example.com", width: 750)
        let rewriter = HTMLRewriter(rewriter: try Rewriter(configuration: configuration))
        let output = rewriter.rewrite(
            "<img src=http://img.example.com/a.jpg><p style=\"background:url(http://img.example.com/b.jpg)\">")
        #expect(
            output
                == "<img src=http://img.example.com/unsafe/fit-in/750x0/filters:format(webp)/a.jpg>"
                + #"<p style="background:url(http://img.example.com/unsafe/fit-in/750x0/"#
                + #"filters:format\(webp\)/b.jpg)">"#)
    }
}
