import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Every hop the bridge follows is routed again through the rules of the
/// first request (host, scheme, port): an allowed upstream that redirects to
/// a host or port the rules do not name makes the bridge hand the client the
/// redirect (or a 502), never fetch it. Live servers on loopback, the
/// platform's real loader, both proxy modes.
@Suite(.timeLimit(.suiteBound))
struct RedirectRoutingTests {
    enum Mode: String, CaseIterable, Sendable {
        case reverse, forward
    }

    static func bridge(_ mode: Mode, site: RedirectSite) throws -> BridgeProxy {
        switch mode {
        case .reverse: try RedirectSite.bridge(.reverse(upstream: site.upstream.baseURL))
        case .forward: try RedirectSite.bridge(.forward(allowedHosts: ["127.0.0.1:\(site.upstream.port)"]))
        }
    }

    static func target(_ path: String, _ mode: Mode, site: RedirectSite) -> String {
        mode == .reverse ? path : site.upstream.baseURL.absoluteString + path
    }

    @Test(
        arguments: Mode.allCases, ["/host302.jpg", "/host307.jpg", "/port302.jpg", "/port307.jpg", "/text302.jpg"])
    func anImageRedirectOutsideTheRulesIsNotFetched(mode: Mode, path: String) async throws {
        try await RedirectSite.with { site in
            let bridge = try Self.bridge(mode, site: site)
            let response = await bridge.handle(.webView(Self.target(path, mode, site: site)))
            #expect(site.secret.requestCount == 0, "the host the rules do not name was contacted")
            #expect(site.otherPort.requestCount == 0, "the port the rules do not name was contacted")
            let status = response.status.code
            #expect([302, 307, 502].contains(status), "\(status) \(response.bodyText)")
            if status != 502 {
                let location = try #require(response.headers["Location"])
                #expect(location.hasPrefix("http://127.0.0.2:") || location.hasPrefix("http://127.0.0.1:"))
                #expect(!response.headers["Content-Type"].map { $0.hasPrefix("image/") }.isTrue)
            }
            // A browser that shows WebP takes the same path.
            let webP = await bridge.handle(
                .webView(Self.target(path, mode, site: site), accept: BridgeFixture.webPAccept))
            #expect(site.escapedRequests == 0)
            #expect([302, 307, 502].contains(webP.status.code))
        }
    }

    @Test(arguments: Mode.allCases, ["/page302.html", "/page307.html"])
    func aPassthroughRedirectIsHandedToTheClientNotFetched(mode: Mode, path: String) async throws {
        try await RedirectSite.with { site in
            let bridge = try Self.bridge(mode, site: site)
            let get = await bridge.handle(HTTPRequest(target: Self.target(path, mode, site: site)))
            #expect([302, 307].contains(get.status.code), "\(get.status) \(get.bodyText)")
            #expect(get.headers["Location"] != nil)
            let post = await bridge.handle(
                HTTPRequest(method: .post, target: Self.target(path, mode, site: site), body: Data("a=1".utf8)))
            #expect([302, 307].contains(post.status.code), "\(post.status) \(post.bodyText)")
            #expect(site.escapedRequests == 0)
        }
    }

    @Test(arguments: Mode.allCases)
    func aRedirectInsideTheRulesIsFollowed(mode: Mode) async throws {
        try await RedirectSite.with { site in
            let bridge = try Self.bridge(mode, site: site)
            let response = await bridge.handle(.webView(Self.target("/inside.jpg", mode, site: site)))
            #expect(response.status == .ok, "\(response.status) \(response.bodyText)")
            #expect(response.headers["Content-Type"] == "image/jpeg")
            #expect(try ImageFormat.sniff(response.bodyData) == .jpeg)
            #expect(site.escapedRequests == 0)
        }
    }
}

extension Bool? {
    fileprivate var isTrue: Bool { self == true }
}
