import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// What the bridge refuses: foreign hosts in forward mode (no open proxy),
/// the wrong request form, CONNECT, and requests that already passed it.
@Suite(.timeLimit(.suiteBound))
struct RefusalTests {
    @Test(arguments: [
        "http://evil.example/", "http://img.test.evil.example/photo.jpg", "http://evilimg.test/photo.jpg",
        "http://img.test@evil.example/photo.jpg", "http://static.test.evil.example/index.html",
        "http://127.0.0.1:22/",
    ])
    func forwardModeRefusesHostsNoRuleOrAllowListNames(target: String) async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.forwardBridge()
        let response = await bridge.handle(HTTPRequest(target: target))
        #expect(response.status == .forbidden)
        #expect(response.bodyText.contains("not an open proxy"))
        #expect(fixture.upstream.requests.isEmpty, "nothing was fetched")
    }

    @Test func forwardModeServesRuleHostsAndAllowedHosts() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.forwardBridge()
        let image = await bridge.handle(.webView("http://img.test/photo.jpg"))
        #expect(image.status == .ok)
        #expect(image.headers["Content-Type"] == "image/jpeg")
        let page = await bridge.handle(.webView("http://IMG.TEST/index.html"))
        #expect(page.bodyData == BridgeFixture.html)
        let allowed = await bridge.handle(.webView("http://static.test/style.css"))
        #expect(allowed.bodyData == BridgeFixture.css)
        #expect(fixture.upstream.requests.last?.url.absoluteString == "http://static.test/style.css")
    }

    @Test func forwardModeWantsAbsoluteForm() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.forwardBridge()
        let response = await bridge.handle(HTTPRequest(target: "/index.html"))
        #expect(response.status == .badRequest)
        #expect(response.bodyText.contains("absolute-form"))
        // The bridge's own endpoints still answer.
        let health = await bridge.handle(HTTPRequest(target: "/__bridge/healthz"))
        #expect(health.status == .ok)
    }

    @Test func reverseModeRefusesAbsoluteForm() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(HTTPRequest(target: "http://evil.example/"))
        #expect(response.status == .badRequest)
        #expect(fixture.upstream.requests.isEmpty)
    }

    @Test(arguments: ["forward", "reverse"])
    func connectGetsAClear501(mode: String) async throws {
        let fixture = try BridgeFixture()
        let bridge = try mode == "forward" ? fixture.forwardBridge() : fixture.bridge()
        let response = await bridge.handle(HTTPRequest(method: .connect, target: "img.test:443"))
        #expect(response.status == .notImplemented)
        #expect(response.bodyText.contains("CONNECT is not supported"))
        #expect(response.bodyText.contains("--upstream https://"))
        #expect(fixture.upstream.requests.isEmpty)
    }

    @Test(arguments: ["1.1 webp-bridge", "1.0 corp, 1.1 WEBP-BRIDGE (WebPBridge/0.1)", "HTTP/1.1 webp-bridge"])
    func aRequestCarryingTheBridgesViaIsALoop(via: String) async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(HTTPRequest(target: "/photo.jpg", headers: ["Via": via]))
        #expect(response.status == 508)
        #expect(response.bodyText.contains("loop"))
        #expect(fixture.upstream.requests.isEmpty)
    }

    @Test func anotherProxysViaIsNotALoop() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(
            HTTPRequest(target: "/index.html", headers: ["Via": "1.1 webp-bridge-edge, 1.1 squid"]))
        #expect(response.status == .ok)
    }

    @Test func aBridgeInFrontOfItselfStopsAtOnce() async throws {
        // The upstream is the bridge: the first hop adds Via, the second refuses.
        let fixture = try BridgeFixture()
        let target = Lock<BridgeProxy?>(nil)
        let loopback = ScriptedDataLoader(
            serving: ClosureHTTPHandler { request in
                guard let bridge = target.withLock({ $0 }) else { return HTTPResponse(status: HTTPStatus(code: 502)) }
                return await bridge.handle(request)
            })
        let bridge = try fixture.bridge(loader: loopback)
        target.withLock { $0 = bridge }
        // The loader holds the bridge that holds the loader: break the cycle.
        defer { target.withLock { $0 = nil } }
        let page = await bridge.handle(HTTPRequest(target: "/index.html"))
        #expect(page.status == 508)
        let image = await bridge.handle(.webView("/photo.jpg"))
        #expect(image.status == 508, "the pipeline's fetches carry Via too (ViaStampingLoader)")
    }

    @Test func invalidConfigurationsAreRefused() throws {
        let fixture = try BridgeFixture()
        #expect(throws: BridgeProxyError.self) {
            try fixture.bridge(upstreamURL: "ftp://img.test")
        }
        #expect(throws: BridgeProxyError.self) {
            try fixture.bridge { $0.viaToken = "two words" }
        }
        #expect(throws: BridgeProxyError.self) {
            try BridgeProxy(
                configuration: .init(
                    mode: .forward(allowedHosts: ["img.test/path"]), pipeline: try fixture.pipeline()))
        }
    }
}

/// Forward mode with a wildcard rule: subdomains at a label boundary only.
@Suite(.timeLimit(.suiteBound))
struct WildcardForwardTests {
    @Test(arguments: [
        ("http://cdn.example.test/a.jpg", true), ("http://a.b.example.test/a.jpg", true),
        ("http://example.test/a.jpg", false), ("http://badexample.test/a.jpg", false),
        ("http://cdn.example.test.evil.example/a.jpg", false),
    ])
    func wildcardRulesAllowSubdomainsOnly(target: String, allowed: Bool) async throws {
        let fixture = try BridgeFixture()
        let rules = try RewritePreset.configuration(named: "qiniu", host: "*.example.test", width: 750)
        let rewriter = try Rewriter(configuration: rules)
        let mode = BridgeProxy.Configuration.Mode.forward(allowedHosts: [])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: fixture.upstream, memoryCache: nil,
                redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
        let bridge = try BridgeProxy(
            configuration: .init(mode: mode, pipeline: pipeline, passthroughLoader: fixture.upstream))
        let response = await bridge.handle(HTTPRequest(target: target))
        #expect((response.status != .forbidden) == allowed, "\(response.status) \(response.bodyText)")
    }
}
