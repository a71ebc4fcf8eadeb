import Foundation
import TestTraits
import Testing
import WebPBridge

/// Finding 10 of issue 26 through the HTML rewriter: an attribute's URL is
/// read as a browser reads it before a path-prefix dialect is applied.
@Suite(.timeLimit(.suiteBound)) struct BrowserURLReadingTests {
    static func rewriter(_ dialect: RewriteDialect) throws -> HTMLRewriter {
        let rule = RewriteRule(name: dialect.name, hosts: ["img.example.com"], dialect: dialect)
        return HTMLRewriter(
            rewriter: try Rewriter(configuration: RewriteConfiguration(rules: [rule])),
            baseURL: URL(string: "http://img.example.com/pages/a/"))
    }

    @Test func dotSegmentsAreResolvedBeforeThePrefix() throws {
        let thumbor = try Self.rewriter(.thumbor(ThumborOptions()))
        #expect(
            thumbor.rewrite(#"<img src="http://img.example.com/foo/../../../ton.jpg">"#)
                == #"<img src="http://img.example.com/unsafe/filters:format(webp)/ton.jpg">"#)
        #expect(
            thumbor.rewrite(#"<img src="../../b/./c.jpg">"#)
                == #"<img src="http://img.example.com/unsafe/filters:format(webp)/b/c.jpg">"#)
        let cloudflare = try Self.rewriter(.cloudflare)
        #expect(
            cloudflare.rewrite(#"<img srcset="/x/%2e%2e/ton.jpg 2x">"#)
                == #"<img srcset="http://img.example.com/cdn-cgi/image/format=webp,onerror=redirect/ton.jpg 2x">"#)
    }

    @Test func malformedEscapesAreNotEncodedAgain() throws {
        let thumbor = try Self.rewriter(.thumbor(ThumborOptions()))
        let page = #"<img src="http://img.example.com/foo/%2e%2.jpg"><img src="/a.jpg?%GH">"#
        #expect(!thumbor.rewrite(page).contains("%25"))
    }
}
