import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Everything that is not a claimed image reaches the client as the
/// upstream sent it: status, body, end-to-end headers; hop-by-hop dropped,
/// `Via` added, redirects not followed and kept on the bridge.
@Suite(.timeLimit(.suiteBound))
struct PassthroughTests {
    @Test(arguments: [
        ("/index.html", "text/html; charset=utf-8"), ("/style.css", "text/css"),
        ("/app.js", "application/javascript"), ("/anim.gif", "image/gif"),
    ])
    func bodiesAndHeadersAreByteIdentical(path: String, contentType: String) async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let expected: Data =
            switch path {
            case "/index.html": BridgeFixture.html
            case "/style.css": BridgeFixture.css
            case "/app.js": BridgeFixture.javascript
            default: BridgeFixture.gif
            }
        // A WebView that cannot show WebP: even then a GIF is not touched.
        let response = await bridge.handle(.webView(path))
        #expect(response.status == .ok)
        #expect(response.bodyData == expected)
        #expect(response.headers["Content-Type"] == contentType)
        #expect(response.headers["Via"] == "1.1 webp-bridge")
        #expect(response.headers["Vary"] == nil, "nothing here depends on the client")
        if path == "/index.html" {
            #expect(response.headers["Cache-Control"] == "max-age=60")
            #expect(response.headers["ETag"] == "\"page-1\"")
            #expect(response.headers["X-Site"] == "front")
        }
        if path == "/anim.gif" { #expect(response.headers["Cache-Control"] == "max-age=600") }
    }

    @Test func hopByHopHeadersAreDroppedBothWaysAndViaAppended() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(
            HTTPRequest(
                target: "/hop",
                headers: [
                    "Connection": "keep-alive, X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
                    "Proxy-Authorization": "Basic c2VjcmV0", "TE": "trailers", "Upgrade": "websocket",
                    "X-E2E": "yes", "Via": "1.0 corporate-proxy",
                ]))
        #expect(response.status == .ok)
        #expect(response.bodyText == "hop\n")
        for name in [
            "Connection", "X-Secret", "Keep-Alive", "Transfer-Encoding", "Upgrade", "Proxy-Authenticate", "Trailer",
        ] {
            #expect(response.headers[name] == nil, "\(name) is hop-by-hop")
        }
        #expect(response.headers["X-End"] == "kept")
        #expect(response.headers["Via"] == "1.1 cdn, 1.1 webp-bridge")

        let sent = try #require(fixture.upstream.requests.last)
        let names = Set(sent.headers.map { $0.name.lowercased() })
        for name in ["connection", "x-hop", "keep-alive", "proxy-authorization", "te", "upgrade", "host"] {
            #expect(!names.contains(name), "\(name) must not reach the upstream")
        }
        #expect(sent.headers["x-e2e"] == "yes")
        #expect(sent.headers["via"] == "1.0 corporate-proxy, 1.1 webp-bridge")
    }

    @Test func postBodyAndMethodAreForwarded() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let payload = Data("name=bridge&photo=1".utf8)
        let response = await bridge.handle(
            HTTPRequest(
                method: .post, target: "/echo", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: payload))
        #expect(response.status == 201)
        #expect(response.bodyText.hasPrefix("method=POST\n"))
        #expect(response.bodyData.suffix(payload.count) == payload)
        #expect(fixture.upstream.requests.last?.body == payload)
    }

    @Test func aPostToAnImageURLIsNotClaimed() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        _ = await bridge.handle(HTTPRequest(method: .post, target: "/photo.jpg", body: Data("x".utf8)))
        #expect(fixture.upstream.requests.count == 1)
        #expect(fixture.upstream.requests.last?.url.absoluteString == "http://img.test/photo.jpg")
        #expect(fixture.upstream.requests.last?.method == "POST")
    }

    @Test func redirectsToTheUpstreamStayOnTheBridge() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(HTTPRequest(target: "/old", headers: ["Host": "127.0.0.1:8080"]))
        #expect(response.status == .found, "redirects reach the client, not followed")
        #expect(response.headers["Location"] == "http://127.0.0.1:8080/new?from=old")

        let away = await bridge.handle(HTTPRequest(target: "/away", headers: ["Host": "127.0.0.1:8080"]))
        #expect(away.status == .movedPermanently)
        #expect(away.headers["Location"] == "https://elsewhere.test/x", "other sites are left alone")

        let noHost = await bridge.handle(HTTPRequest(target: "/old"))
        #expect(noHost.headers["Location"] == "/new?from=old", "a path-only Location without a Host")
    }

    @Test func redirectsUnderABasePathDropTheBase() async throws {
        let fixture = try BridgeFixture()
        let site = ScriptedDataLoader(
            serving: ClosureHTTPHandler { request in
                switch request.path {
                case "/base/a": HTTPResponse(status: .found, headers: ["Location": "http://img.test/base/b"])
                case "/base/c": HTTPResponse(status: 303, headers: ["Location": "/base/d?x"])
                case "/base/e": HTTPResponse(status: .found, headers: ["Location": "http://img.test/other"])
                default: .text(.notFound, "no")
                }
            })
        let bridge = try fixture.bridge(upstreamURL: "http://img.test/base/", loader: site)
        let first = await bridge.handle(HTTPRequest(target: "/a", headers: ["Host": "bridge.local:9"]))
        #expect(site.requests.last?.url.absoluteString == "http://img.test/base/a")
        #expect(first.headers["Location"] == "http://bridge.local:9/b")
        let second = await bridge.handle(HTTPRequest(target: "/c", headers: ["Host": "bridge.local:9"]))
        #expect(second.headers["Location"] == "/d?x")
        let outside = await bridge.handle(HTTPRequest(target: "/e", headers: ["Host": "bridge.local:9"]))
        #expect(outside.headers["Location"] == "http://img.test/other", "outside the base: not on the bridge")
    }

    @Test func upstreamErrorStatusesPassThrough() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let missingPage = await bridge.handle(.webView("/missing.html"))
        #expect(missingPage.status == .notFound)
        // A missing image: the variant and the original fail with 404; the client sees the upstream's 404.
        let missingImage = await bridge.handle(.webView("/missing.jpg"))
        #expect(missingImage.status == .notFound)
    }

    @Test func headPassthroughDeclaresTheUpstreamLength() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(HTTPRequest(method: .head, target: "/index.html"))
        #expect(response.status == .ok)
        #expect(response.bodyData.count == BridgeFixture.html.count)
        #expect(fixture.upstream.requests.last?.method == "HEAD")
    }
}
