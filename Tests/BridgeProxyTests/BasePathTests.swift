import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Reverse mode never leaves the upstream's base path: dot segments, raw or
/// percent-encoded, and backslashes are refused (400) rather than resolved
/// by a URL library or by curl, and redirect hops are held to the same
/// path. A live upstream on loopback says which path it received.
@Suite(.timeLimit(.suiteBound))
struct BasePathTests {
    static let escapes = [
        "/../echo", "/%2e%2e/echo", "/.%2E/echo", "/%2E./echo", "/..%2fecho", "/..%2Fecho", "/..%5cecho",
        "/..\\echo", "/a/../../echo", "/./../echo", "/a/./b", "/..", "/a/..?x=1",
    ]

    @Test func targetsWithDotSegmentsNeverLeaveTheBase() async throws {
        let echo = ClosureHTTPHandler { request in .text(.ok, "received " + request.target) }
        try await LoopbackServer.with(echo) { upstream in
            let mode = BridgeProxy.Configuration.Mode.reverse(upstream: upstream.url("/base"))
            let loader = DefaultDataLoader()  // not the shared one: its pooled connections outlive other tests' servers
            let pipeline = ImagePipeline(
                configuration: .init(
                    dataLoader: loader, memoryCache: nil, redirectPolicy: mode.redirectPolicy(rewriter: nil)))
            let bridge = try BridgeProxy(
                configuration: .init(mode: mode, pipeline: pipeline, passthroughLoader: loader))

            let plain = await bridge.handle(HTTPRequest(target: "/echo?q=1"))
            #expect(plain.bodyText == "received /base/echo?q=1\n")
            // Servers that take `;` as a path parameter (`..;` is `..` to them) never see one either.
            for target in ["/..;/echo", "/%2e%2e;x=1/echo", "/a/.;/b"] {
                #expect(await bridge.handle(HTTPRequest(target: target)).status == .badRequest, "\(target)")
            }
            for target in Self.escapes {
                let response = await bridge.handle(HTTPRequest(target: target))
                let received = response.bodyText
                #expect(
                    response.status == .badRequest || received.hasPrefix("received /base/"),
                    "\(target) reached the upstream as \(received)")
            }
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8081/base/a.jpg", true), ("http://127.0.0.1:8081/base", true),
        ("http://127.0.0.1:8081/base/../a.jpg", false), ("http://127.0.0.1:8081/base/%2e%2e/a.jpg", false),
        ("http://127.0.0.1:8081/basement/a.jpg", false), ("http://127.0.0.1:8081/a.jpg", false),
        ("https://127.0.0.1:8081/base/a.jpg", false), ("http://127.0.0.1:8082/base/a.jpg", false),
        ("http://127.0.0.2:8081/base/a.jpg", false), ("http://LOCALHOST:8081/base/a.jpg", false),
    ])
    func redirectHopsStayOnTheUpstreamAndItsPath(hop: String, allowed: Bool) throws {
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: URL(string: "http://127.0.0.1:8081/base/")!)
        let policy = mode.redirectPolicy(rewriter: nil)
        #expect(policy.allows(try #require(URL(string: hop))) == allowed)
    }

    @Test(arguments: [
        ("http://a.test/x.jpg", true), ("https://a.test/x.jpg", true), ("http://a.test:80/x.jpg", true),
        ("http://a.test:443/x.jpg", false), ("http://a.test:8080/x.jpg", false), ("http://b.test:8080/x.jpg", true),
        ("http://b.test/x.jpg", true), ("http://b.test:8081/x.jpg", false), ("http://c.test/x.jpg", false),
        ("ftp://a.test/x.jpg", false),
    ])
    func forwardHopsKeepToTheNamedHostsAndPorts(hop: String, allowed: Bool) throws {
        let mode = BridgeProxy.Configuration.Mode.forward(allowedHosts: ["a.test", "B.test:8080"])
        let policy = mode.redirectPolicy(rewriter: nil)
        #expect(policy.allows(try #require(URL(string: hop))) == allowed)
    }
}
