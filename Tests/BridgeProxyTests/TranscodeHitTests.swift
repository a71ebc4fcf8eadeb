import BridgeProxy
import Foundation
import HTTPServer
import TestTraits
import Testing
import WebPBridge

/// A legacy client's repeated request is a hit: the transcode is kept, and
/// once the variant comes from the data cache the answer is memoised and
/// given on the server's own thread, like a WebP client's hit.
@Suite(.timeLimit(.suiteBound))
struct TranscodeHitTests {
    /// `/__bridge/metrics` as a scraper reads it.
    static func metrics(_ bridge: BridgeProxy) async -> String {
        String(decoding: await bridge.handle(HTTPRequest(target: "/__bridge/metrics")).bodyData, as: UTF8.self)
    }

    @Test func aLegacyClientsRepeatIsAnsweredOnTheServersThreadWithoutATranscode() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let legacy = HTTPRequest.webView("/photo.jpg")
        #expect(bridge.immediateResponse(to: legacy) == nil, "a transcode waits")
        let first = await bridge.handle(legacy)
        #expect(first.headers["Content-Type"] == "image/jpeg")
        // The variant now comes from the data cache: the kept transcode answers, and is memoised.
        let second = await bridge.handle(legacy)
        #expect(second.bodyData == first.bodyData)
        let hit = try #require(bridge.immediateResponse(to: legacy), "a hit")
        #expect(hit.status == .ok)
        #expect(hit.bodyData == first.bodyData)
        for name in ["Content-Type", "ETag", "Vary", "Via", "Cache-Control"] {
            #expect(hit.headers[name] == first.headers[name], "\(name)")
        }
        #expect(hit.headers[BridgeDiagnosticHeader.delivery] == "transcoded")
        let usage = bridge.imageBridge.transcodes.usage
        #expect(usage.misses == 1 && usage.memoryHits == 1, "one transcode for three requests")
        let metrics = await Self.metrics(bridge)
        #expect(metrics.contains("webpbridge_proxy_transcode_cache_misses 1"))
        #expect(metrics.contains("webpbridge_proxy_transcode_cache_memory_hits 1"))
        #expect(metrics.contains("webpbridge_proxy_transcode_cache_entries 1"))
        #expect(metrics.contains("webpbridge_proxy_transcode_seconds_count 1"))
        #expect(metrics.contains("webpbridge_proxy_requests_total{outcome=\"transcoded\"} 3"))
    }

    @Test func aWebPClientAndALegacyClientMemoisedOnOneImageEachGetTheirOwnBody() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let webP = HTTPRequest.webView("/photo.jpg", accept: BridgeFixture.webPAccept)
        let legacy = HTTPRequest.webView("/photo.jpg")
        _ = await bridge.handle(webP)
        let webPHit = try #require(bridge.immediateResponse(to: webP))
        _ = await bridge.handle(legacy)
        _ = await bridge.handle(legacy)
        let legacyHit = try #require(bridge.immediateResponse(to: legacy))
        #expect(try ImageFormat.sniff(webPHit.bodyData) == .webp)
        #expect(try ImageFormat.sniff(legacyHit.bodyData) == .jpeg)
        #expect(try ImageFormat.sniff(try #require(bridge.immediateResponse(to: webP)).bodyData) == .webp)
    }

    @Test func withoutTheCacheEveryLegacyRequestIsTranscoded() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge(adjust: { $0.keepsTranscodes = false })
        let legacy = HTTPRequest.webView("/photo.jpg")
        for _ in 0..<3 { #expect(await bridge.handle(legacy).headers["Content-Type"] == "image/jpeg") }
        #expect(bridge.immediateResponse(to: legacy) == nil)
        #expect(await Self.metrics(bridge).contains("webpbridge_proxy_transcode_seconds_count 3"))
    }
}

extension TranscodeHitTests {
    /// The memo's key holds the whole `Accept` the policy decides on: a
    /// client whose second `Accept` line names WebP and one with only the
    /// first line are different clients, never given each other's answer.
    @Test func aSecondAcceptLineMakesAnotherClient() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge(policy: .standard)
        var twoLines = HTTPRequest(target: "/photo.jpg", headers: ["User-Agent": "client", "Accept": "image/png"])
        twoLines.headers.add(name: "Accept", value: "image/webp")
        let oneLine = HTTPRequest(target: "/photo.jpg", headers: ["User-Agent": "client", "Accept": "image/png"])
        #expect(await bridge.handle(twoLines).headers["Content-Type"] == "image/webp")
        #expect(try #require(bridge.immediateResponse(to: twoLines)).headers["Content-Type"] == "image/webp")
        #expect(await bridge.handle(oneLine).headers["Content-Type"] == "image/jpeg")
        #expect(await bridge.handle(oneLine).headers["Content-Type"] == "image/jpeg")
        #expect(try #require(bridge.immediateResponse(to: oneLine)).headers["Content-Type"] == "image/jpeg")
        #expect(try #require(bridge.immediateResponse(to: twoLines)).headers["Content-Type"] == "image/webp")
    }
}
