import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `proxy --rewrite-html` reads a page as a browser does (issue 26,
/// finding 6): an `img` a browser keeps as script text stays as written,
/// the one after the script is rewritten.
@Suite(.timeLimit(.suiteBound))
struct PageTokenizingTests {
    static let page =
        "<script><!--<script></script><img src=\"http://img.test/a.jpg\">--></script><img src=\"/b.jpg\">"

    @Test func anImgInADoubleEscapedScriptStaysScriptText() async throws {
        let fixture = try BridgeFixture()
        let site = ScriptedDataLoader(
            serving: ClosureHTTPHandler { _ in .data(Data(Self.page.utf8), contentType: "text/html; charset=utf-8") })
        let bridge = try fixture.bridge(loader: site) { $0.rewritesHTML = true }
        let response = await bridge.handle(
            HTTPRequest(
                target: "/index.html",
                headers: ["User-Agent": PageRewritingTests.webKit, "Accept": PageRewritingTests.pageAccept]))
        #expect(response.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten 1")
        let query = "?imageView2/2/w/750/format/webp/ignore-error/1"
        #expect(
            response.bodyText
                == "<script><!--<script></script><img src=\"http://img.test/a.jpg\">--></script>"
                + "<img src=\"/b.jpg\(query)\">")
    }
}
