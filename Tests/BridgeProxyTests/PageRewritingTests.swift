import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `proxy --rewrite-html`: which pages name the variants (a `200`
/// `text/html`, not encoded, not `no-transform`, for a client whose images
/// get variants), what the others keep, and the fields of both.
@Suite(.timeLimit(.suiteBound))
struct PageRewritingTests {
    /// WebKit's page `Accept` (Safari, WKWebView, WebKitGTK): no `image/webp`.
    static let pageAccept = ClientProfile.linuxWebKit.pageAccept
    static let webKit = ClientProfile.linuxWebKit.userAgent
    static let iPad = ClientProfile.iPadWebView.userAgent

    /// Two images on the site, one relative and one absolute, and one on another host.
    static let page = Data(
        ("<!doctype html><title>news</title><img src=\"/photo.jpg\" alt=x>\n"
            + "<IMG SRC='http://img.test/logo.png?v=1&amp;s=2'><img src=\"http://other.test/x.jpg\">\n").utf8)
    /// 300 tiny image tags: each grows by its variant's query when rewritten.
    static let densePage = Data(String(repeating: "<img src=/a.jpg>", count: 300).utf8)
    /// Pages whose bytes spell `<img src="/photo.jpg">` in ASCII but are not
    /// markup in their encoding (issue 26, finding 7): UTF-16LE with a byte
    /// order mark; UTF-16LE text served `charset=utf-16`; ISO-2022-JP by
    /// `<meta charset>`, JIS X 0208 characters made of those bytes.
    static let utf16LEWithBOM = Data(
        [0xFF, 0xFE] + Array("<p>hi</p>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            + Array("<img src=\"/photo.jpg\">".utf8) + [0x00])
    static let utf16Text = Data(
        Array("<p>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + Array("<img src=\"/photo.jpg\"> ".utf8))
    static let iso2022JP = Data(
        Array("<meta charset=\"iso-2022-jp\"><p>".utf8) + [0x1B, 0x24, 0x42] + Array("<img src=\"/photo.jpg\"".utf8)
            + [0x1B, 0x28, 0x42] + Array("</p>".utf8))
    /// The passthrough limit of the rows that set one.
    static let smallLimit = 8_000

    /// The upstream: one page per path, with the fields the rows need.
    static let site = ClosureHTTPHandler { request in
        let html = "text/html; charset=utf-8"
        switch request.path {
        case "/index.html":
            return .data(
                page, contentType: html,
                headers: [
                    "ETag": "\"page-1\"", "Content-MD5": "bm90IGNoZWNrZWQ=", "Accept-Ranges": "bytes",
                    "Cache-Control": "max-age=60", "Last-Modified": "Tue, 01 Apr 2025 10:00:00 GMT",
                ])
        case "/upper.html": return .data(page, contentType: "Text/HTML ;Charset=UTF-8")
        case "/gzip.html": return .data(page, contentType: html, headers: ["Content-Encoding": "gzip"])
        case "/identity.html": return .data(page, contentType: html, headers: ["Content-Encoding": "identity"])
        case "/nt.html": return .data(page, contentType: html, headers: ["Cache-Control": "public, no-transform"])
        case "/vary.html": return .data(page, contentType: html, headers: ["Vary": "Accept-Encoding"])
        case "/partial.html":
            return HTTPResponse(
                status: 206, headers: ["Content-Type": html, "Content-Range": "bytes 0-15/\(page.count)"],
                body: .data(page.prefix(16)))
        case "/page.txt": return .data(page, contentType: "text/plain")
        case "/echo-encoding.html":
            return .data(
                page, contentType: html, headers: ["X-Seen-Accept-Encoding": request.headers["Accept-Encoding"] ?? "-"])
        case "/dense.html": return .data(densePage, contentType: html)
        case "/utf16-bom.html": return .data(utf16LEWithBOM, contentType: "text/html")
        case "/utf16.html": return .data(utf16Text, contentType: "text/html; charset=utf-16")
        case "/iso-2022-jp.html": return .data(iso2022JP, contentType: "text/html")
        case "/big.html": return .data(Data(repeating: UInt8(ascii: "x"), count: smallLimit + 1), contentType: html)
        default: return HTTPResponse(status: .notFound, headers: ["Content-Type": html], body: .data(page))
        }
    }

    enum Expected: Sendable {
        /// The page names this many variants.
        case rewritten(Int)
        /// As the upstream sent it; `X-WebPBridge-HTML: untouched REASON`
        /// (no such field when `nil`).
        case untouched(String?)
        /// The bridge's own answer with this status, as without the flag.
        case refused(Int)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var path = "/index.html"
        var method = HTTPMethod.get
        var userAgent = webKit
        var cacheControl: String?
        var policy = ClientPolicy.standard
        var rewritesHTML = true
        var forward = false
        var limit: Int?
        var expected: Expected
        /// The `Vary` expected (the policy's, merged into the upstream's).
        var vary: String?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "accept policy: WebKit's page Accept, its images come back through the bridge",
            expected: .rewritten(2), vary: "Accept"),
        Row(
            name: "HEAD: the same fields, the rewritten length", method: .head, expected: .rewritten(2),
            vary: "Accept"),
        Row(
            name: "Content-Type in any case with parameters", path: "/upper.html", expected: .rewritten(2),
            vary: "Accept"),
        Row(
            name: "Content-Encoding identity is no encoding", path: "/identity.html", expected: .rewritten(2),
            vary: "Accept"),
        Row(
            name: "the upstream's Vary keeps its fields, the policy's follow", path: "/vary.html",
            expected: .rewritten(2), vary: "Accept-Encoding, Accept"),
        Row(
            name: "forward mode: variants stay absolute", path: "http://img.test/index.html", forward: true,
            expected: .rewritten(2), vary: "Accept"),
        Row(
            name: "legacy policy: an AppleWebKit client's images are transcoded", policy: .legacy,
            expected: .rewritten(2), vary: "Accept, User-Agent"),
        Row(
            name: "legacy policy: another client keeps the originals", userAgent: ClientProfile.curl.userAgent,
            policy: .legacy,
            expected: .untouched("client"), vary: "Accept, User-Agent"),
        Row(
            name: "legacy policy: an excluded tablet keeps the originals", userAgent: iPad, policy: .legacy,
            expected: .untouched("client"), vary: "Accept, User-Agent"),
        Row(
            name: "the client's no-transform", cacheControl: "no-cache, no-transform", expected: .untouched("client"),
            vary: "Accept"),
        Row(
            name: "the upstream's no-transform", path: "/nt.html", expected: .untouched("no-transform"),
            vary: "Accept"),
        Row(name: "a gzip body is not markup", path: "/gzip.html", expected: .untouched("encoding"), vary: "Accept"),
        Row(name: "a 404 page", path: "/missing.html", expected: .untouched("status"), vary: "Accept"),
        Row(name: "a 206 range of a page", path: "/partial.html", expected: .untouched("status"), vary: "Accept"),
        Row(name: "not HTML", path: "/page.txt", expected: .untouched(nil), vary: nil),
        Row(
            name: "a page that would outgrow the passthrough limit", path: "/dense.html", limit: smallLimit,
            expected: .untouched("size"), vary: "Accept"),
        Row(
            name: "a page over the passthrough limit: 502 as without the flag", path: "/big.html", limit: smallLimit,
            expected: .refused(502), vary: nil),
        Row(name: "flag off: the page as the upstream sent it", rewritesHTML: false, expected: .untouched(nil)),
        Row(
            name: "a UTF-16LE page with a byte order mark", path: "/utf16-bom.html", expected: .untouched("charset"),
            vary: "Accept"),
        Row(
            name: "a page served charset=utf-16", path: "/utf16.html", expected: .untouched("charset"), vary: "Accept"),
        Row(
            name: "an ISO-2022-JP page", path: "/iso-2022-jp.html", expected: .untouched("charset"), vary: "Accept"),
    ]

    @Test(arguments: rows)
    func rewritesOnlyWhatItMay(_ row: Row) async throws {
        let fixture = try BridgeFixture()
        let upstream = ScriptedDataLoader(serving: Self.site)
        let bridge = try Self.bridge(row, fixture: fixture, upstream: upstream)
        var headers: HTTPFieldList = ["User-Agent": row.userAgent, "Accept": Self.pageAccept, "Host": "bridge.test"]
        if let cacheControl = row.cacheControl { headers["Cache-Control"] = cacheControl }
        let response = await bridge.handle(HTTPRequest(method: row.method, target: row.path, headers: headers))
        let upstreamMethods = upstream.requests.map(\.method)
        // The page as the upstream answers it, asked for again.
        let original = try #require(upstream.requests.first)
        let upstreamAnswer = try await upstream.load(
            DataRequest(url: original.url, method: "GET", headers: original.headers))

        #expect(response.headers["Vary"] == row.vary)
        switch row.expected {
        case .rewritten(let count):
            #expect(response.status == .ok)
            #expect(response.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten \(count)")
            // Its images' sizes are the origin's to choose: the page asks for the hints.
            #expect(response.headers["Accept-CH"] == "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
            for stale in ["ETag", "Content-MD5", "Accept-Ranges", "Content-Length"] {
                #expect(response.headers[stale] == nil, "\(stale) describes the upstream's bytes")
            }
            let expectedPage = try Self.rewrittenPage(fixture: fixture, forward: row.forward)
            if row.method == .head {
                #expect(response.bodyData.count == expectedPage.count, "a HEAD declares the rewritten length")
                #expect(upstreamMethods == ["HEAD", "GET"])
            } else {
                #expect(response.bodyText == expectedPage)
            }
            if row.path == "/index.html" {
                #expect(response.headers["Cache-Control"] == "max-age=60")
                #expect(response.headers["Last-Modified"] == "Tue, 01 Apr 2025 10:00:00 GMT")
            }
        case .untouched(let reason):
            #expect(response.status.code == upstreamAnswer.statusCode)
            #expect(response.bodyData == upstreamAnswer.body, "byte for byte")
            #expect(response.headers[BridgeProxy.htmlDiagnosticHeader] == reason.map { "untouched \($0)" })
            #expect(response.headers["Accept-CH"] == nil, "only the pages it rewrites ask for hints")
            for field in upstreamAnswer.headers where !["content-length", "vary"].contains(field.name.lowercased()) {
                #expect(response.headers[field.name] == field.value, "\(field.name) kept")
            }
        case .refused(let status):
            #expect(response.status.code == status)
            let without = try Self.bridge(row, fixture: fixture, upstream: upstream, rewritesHTML: false)
            let plain = await without.handle(HTTPRequest(method: row.method, target: row.path, headers: headers))
            #expect(response.status == plain.status)
            #expect(response.bodyData == plain.bodyData)
        }
    }

    /// The page with the site's two images as the rules' variants: paths on
    /// the bridge in reverse mode, absolute in forward mode.
    static func rewrittenPage(fixture: BridgeFixture, forward: Bool) throws -> String {
        let rewriter = try fixture.rewriter()
        func variant(_ url: String) -> String {
            let rewritten = rewriter.rewrite(URL(string: url)!).url.absoluteString
            #expect(rewritten.contains("imageView2/2/w/750/format/webp"))
            return forward ? rewritten : String(rewritten.dropFirst("http://img.test".count))
        }
        let photo = variant("http://img.test/photo.jpg")
        let logo = variant("http://img.test/logo.png?v=1&s=2").replacingOccurrences(of: "&", with: "&amp;")
        return "<!doctype html><title>news</title><img src=\"\(photo)\" alt=x>\n"
            + "<IMG SRC='\(logo)'><img src=\"http://other.test/x.jpg\">\n"
    }

    static func bridge(
        _ row: Row, fixture: BridgeFixture, upstream: ScriptedDataLoader, rewritesHTML: Bool? = nil
    ) throws -> BridgeProxy {
        let mode: BridgeProxy.Configuration.Mode =
            row.forward ? .forward(allowedHosts: []) : .reverse(upstream: BridgeFixture.site)
        var configuration = BridgeProxy.Configuration(
            mode: mode, pipeline: try fixture.pipeline(loader: upstream, mode: mode), clientPolicy: row.policy,
            passthroughLoader: upstream, limits: .init(upstreamTimeout: .seconds(60)))
        configuration.rewritesHTML = rewritesHTML ?? row.rewritesHTML
        if let limit = row.limit { configuration.limits.maxPassthroughBodyBytes = limit }
        return try BridgeProxy(configuration: configuration)
    }

    @Test func flagOffIsByteIdenticalPassthrough() async throws {
        let fixture = try BridgeFixture()
        let upstream = ScriptedDataLoader(serving: Self.site)
        let row = Row(name: "off", rewritesHTML: false, expected: .untouched(nil))
        let bridge = try Self.bridge(row, fixture: fixture, upstream: upstream)
        let response = await bridge.handle(
            HTTPRequest(target: "/index.html", headers: ["User-Agent": Self.webKit, "Accept": Self.pageAccept]))
        #expect(response.bodyData == Self.page)
        #expect(response.headers["ETag"] == "\"page-1\"")
        #expect(response.headers["Accept-Ranges"] == "bytes")
        #expect(response.headers["Vary"] == nil)
        #expect(response.headers[BridgeProxy.htmlDiagnosticHeader] == nil)
        let metrics = await bridge.handle(HTTPRequest(target: "/__bridge/metrics"))
        #expect(!metrics.bodyText.contains("webpbridge_proxy_html_"), "no page families without the flag")
    }

    /// A page the bridge would rewrite is asked for uncompressed (a
    /// compressed one is never rewritten); any other request keeps the
    /// client's own `Accept-Encoding`.
    @Test(arguments: [
        (Self.webKit, Self.pageAccept, "identity"),
        (ClientProfile.curl.userAgent, Self.pageAccept, "gzip, br"),
        (Self.webKit, "image/webp,*/*", "gzip, br"),
    ])
    func asksForAnUncompressedPageOnlyWhenItWouldRewriteIt(userAgent: String, accept: String, seen: String)
        async throws
    {
        let fixture = try BridgeFixture()
        let upstream = ScriptedDataLoader(serving: Self.site)
        let row = Row(name: "encoding", policy: .legacy, expected: .untouched(nil))
        let bridge = try Self.bridge(row, fixture: fixture, upstream: upstream)
        let response = await bridge.handle(
            HTTPRequest(
                target: "/echo-encoding.html",
                headers: ["User-Agent": userAgent, "Accept": accept, "Accept-Encoding": "gzip, br"]))
        #expect(response.headers["X-Seen-Accept-Encoding"] == seen)
    }

    /// The page names the variant as a path on the bridge; asked for by the
    /// browser, it comes back through the image path as WebP, untranscoded.
    @Test func theVariantsAPageNamesComeBackThroughTheBridge() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge { $0.rewritesHTML = true }
        let page = await bridge.handle(
            HTTPRequest(target: "/index.html", headers: ["User-Agent": Self.webKit, "Accept": Self.pageAccept]))
        #expect(page.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten 1")
        let text = page.bodyText
        let start = try #require(text.range(of: "src=\"")?.upperBound)
        let variantPath = String(text[start...].prefix { $0 != "\"" })
        #expect(variantPath.hasPrefix("/photo.jpg?imageView2/"), "\(text)")

        let image = await bridge.handle(
            HTTPRequest(
                target: variantPath,
                headers: ["User-Agent": Self.webKit, "Accept": "image/webp,image/avif,image/png,image/*;q=0.8"]))
        #expect(image.status == .ok)
        #expect(image.headers["Content-Type"] == "image/webp")
        #expect(image.headers["X-WebPBridge-Delivery"] == "webp")
        #expect(fixture.upstream.requests.last?.url.absoluteString == "http://img.test" + variantPath)

        let metrics = await bridge.handle(HTTPRequest(target: "/__bridge/metrics")).bodyText
        #expect(metrics.contains("webpbridge_proxy_html_pages_total{outcome=\"rewritten\"} 1"), "\(metrics)")
        #expect(metrics.contains("webpbridge_proxy_html_pages_total{outcome=\"client\"} 0"))
        #expect(metrics.contains("webpbridge_proxy_html_rewritten_urls_total 1"))
        #expect(metrics.contains("webpbridge_proxy_requests_total{outcome=\"transcoded\"} 0"))
    }

    /// Credentials of `--upstream` never reach a page: relative URLs resolve
    /// against the page's URL without them, and variants under a base path
    /// come back as paths after it.
    @Test func upstreamCredentialsAndBasePathStayOutOfThePage() async throws {
        let fixture = try BridgeFixture()
        let site = ScriptedDataLoader(
            serving: ClosureHTTPHandler { request in
                request.path == "/base/index.html"
                    ? .data(
                        Data("<img src=\"a.jpg\"><img src=\"/elsewhere/b.jpg\">".utf8),
                        contentType: "text/html")
                    : .text(.notFound, "no")
            })
        let bridge = try fixture.bridge(upstreamURL: "http://user:secret@img.test/base/", loader: site) {
            $0.rewritesHTML = true
        }
        let page = await bridge.handle(
            HTTPRequest(target: "/index.html", headers: ["User-Agent": Self.webKit, "Accept": Self.pageAccept]))
        #expect(page.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten 2")
        let query = "?imageView2/2/w/750/format/webp/ignore-error/1"
        #expect(
            page.bodyText == "<img src=\"/a.jpg\(query)\"><img src=\"http://img.test/elsewhere/b.jpg\(query)\">")
        #expect(!page.bodyText.contains("secret"))
    }
}
