import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import BridgeProxy

/// `--rewrite-html` under load (issue 26, finding 8): rewrites run on a
/// bounded queue off the handler threads, a full queue answers 503 with
/// `Retry-After`, a rewrite that would outgrow its page is stopped, and a
/// rewritten page is kept — within its share of the budget — for the next
/// client.
@Suite(.timeLimit(.suiteBound))
struct PageRewriteQueueTests {
    static let webKit = ClientProfile.linuxWebKit.userAgent
    static let pageAccept = ClientProfile.linuxWebKit.pageAccept

    /// A page of `srcset` candidates built to grow six-fold when each names its variant.
    static let srcsetPage = Data(
        ("<!doctype html>"
            + String(
                repeating: "<img srcset=\"" + String(repeating: "/a.jpg 1x,", count: 2_000) + "\">", count: 10))
            .utf8)
    static let plainPage = Data("<!doctype html><img src=\"/photo.jpg\">\n".utf8)

    static let site = ClosureHTTPHandler { request in
        switch request.path {
        case "/srcset.html": return .data(srcsetPage, contentType: "text/html")
        case "/index.html": return .data(plainPage, contentType: "text/html")
        default:
            // Every other page differs: its path is in it.
            return .data(
                Data("<!doctype html><p>\(request.path)</p><img src=\"/photo.jpg\">\n".utf8), contentType: "text/html")
        }
    }

    static func bridge(
        fixture: BridgeFixture, queueLimit: Int = 4, budget: Int = BridgeProxy.MemoryBudget.defaultTotalBytes
    ) throws -> BridgeProxy {
        let upstream = ScriptedDataLoader(serving: site)
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: BridgeFixture.site)
        var configuration = BridgeProxy.Configuration(
            mode: mode, pipeline: try fixture.pipeline(loader: upstream, mode: mode), passthroughLoader: upstream,
            limits: .init(upstreamTimeout: .seconds(60)))
        configuration.rewritesHTML = true
        configuration.limits.pageRewriteConcurrency = 1
        configuration.limits.pageRewriteQueueLimit = queueLimit
        configuration.memoryBudget = .init(totalBytes: budget)
        return try BridgeProxy(configuration: configuration)
    }

    static func get(_ target: String) -> HTTPRequest {
        HTTPRequest(target: target, headers: ["User-Agent": webKit, "Accept": pageAccept])
    }

    @Test func aRewriteThatWouldOutgrowThePageLeavesItUntouched() async throws {
        let fixture = try BridgeFixture()
        let bridge = try Self.bridge(fixture: fixture)
        let response = await bridge.handle(Self.get("/srcset.html"))
        #expect(response.status == .ok)
        #expect(response.headers[BridgeProxy.htmlDiagnosticHeader] == "untouched size")
        #expect(response.bodyData == Self.srcsetPage)
        // The verdict is kept: the next client gets it without a rewrite.
        let pages = try #require(bridge.rewrittenPages)
        let again = try await pages.queue.withSlot { await bridge.handle(Self.get("/srcset.html")) }
        #expect(again.headers[BridgeProxy.htmlDiagnosticHeader] == "untouched size")
    }

    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let fixture = try BridgeFixture()
        let bridge = try Self.bridge(fixture: fixture, queueLimit: 0)
        let pages = try #require(bridge.rewrittenPages)
        // The only slot is taken and nothing may wait: the page cannot be rewritten now.
        let response = try await pages.queue.withSlot { await bridge.handle(Self.get("/index.html")) }
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers["Retry-After"] == "1")
        // Other requests are not held: an image is still answered meanwhile.
        let image = try await pages.queue.withSlot {
            await bridge.handle(HTTPRequest(target: "/photo.jpg", headers: ["Accept": "image/webp"]))
        }
        #expect(image.status == .ok)
    }

    @Test func aRewrittenPageIsKeptForTheNextClient() async throws {
        let fixture = try BridgeFixture()
        let bridge = try Self.bridge(fixture: fixture, queueLimit: 0)
        let first = await bridge.handle(Self.get("/index.html"))
        #expect(first.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten 1")
        let pages = try #require(bridge.rewrittenPages)
        // With the queue full, only a kept result can answer.
        let second = try await pages.queue.withSlot { await bridge.handle(Self.get("/index.html")) }
        #expect(second.status == .ok)
        #expect(second.bodyData == first.bodyData)
        #expect(second.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten 1")
    }

    /// 1/32 of a 1 MiB budget: 32 KiB for kept pages, flooded by 300
    /// different pages; what is kept never passes it.
    @Test func keptPagesStayWithinTheirShareOfTheBudget() async throws {
        let fixture = try BridgeFixture()
        let bridge = try Self.bridge(fixture: fixture, budget: 1 << 20)
        let pages = try #require(bridge.rewrittenPages)
        let capacity = bridge.configuration.memoryBudget.rewrittenPagesBytes
        #expect(capacity == 32 << 10)
        for index in 0..<300 {
            let response = await bridge.handle(Self.get("/p/\(index)-" + String(repeating: "k", count: 200) + ".html"))
            #expect(response.headers[BridgeProxy.htmlDiagnosticHeader] == "rewritten 1")
            #expect(pages.usageBytes <= capacity)
        }
        #expect(pages.usageBytes > capacity / 2, "the store is in use: \(pages.usageBytes)")
        let metrics = await bridge.handle(HTTPRequest(target: "/__bridge/metrics"))
        #expect(metrics.bodyText.contains("webpbridge_proxy_rewritten_pages_bytes \(pages.usageBytes)"))
    }
}
