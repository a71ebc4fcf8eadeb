import Foundation
import HTTPServer
import TestTraits
import Testing
import WebPBridge

@testable import BridgeProxy

/// Cache hits from clients with distinct long `User-Agent`s, through the
/// handler's immediate path as the server calls it: the hit memo charges
/// each key, and keeps none past the key bound.
@Suite(.timeLimit(.suiteBound))
struct HitMemoFloodTests {
    private func userAgent(_ index: Int, bytes: Int) -> String {
        let suffix = String(index)
        return String(repeating: "u", count: bytes - suffix.utf8.count) + suffix
    }

    private func request(userAgent: String) -> HTTPRequest {
        HTTPRequest(
            target: "/photo.jpg", headers: ["User-Agent": userAgent, "Accept": BridgeFixture.webPAccept, "Host": "b"])
    }

    /// A bridge whose data cache holds `/photo.jpg`.
    private func warmBridge(_ fixture: BridgeFixture) async throws -> BridgeProxy {
        let bridge = try fixture.bridge()
        #expect(await bridge.handle(request(userAgent: "warm")).status == .ok)
        #expect(bridge.immediateResponse(to: request(userAgent: "warm")) != nil, "a cache hit")
        return bridge
    }

    @Test func memoisedHitsChargeTheirKeys() async throws {
        let fixture = try BridgeFixture()
        let bridge = try await warmBridge(fixture)
        let keyBytes = 3_000
        var bodyBytes = 0
        for index in 0..<2_000 {
            let response = try #require(
                bridge.immediateResponse(to: request(userAgent: userAgent(index, bytes: keyBytes))))
            bodyBytes = response.bodyData.count
        }
        let usage = bridge.hitMemo.usage
        #expect(usage.count > 0)
        #expect(usage.bytes >= usage.count * (keyBytes + bodyBytes), "keys and bodies are accounted: \(usage)")
    }

    @Test func keysPastTheBoundAreNotMemoised() async throws {
        let fixture = try BridgeFixture()
        let bridge = try await warmBridge(fixture)
        let before = bridge.hitMemo.usage.count
        for index in 0..<500 {
            let response = bridge.immediateResponse(to: request(userAgent: userAgent(index, bytes: 12_000)))
            #expect(response?.status == .ok, "still served from the data cache")
        }
        #expect(bridge.hitMemo.usage.count == before, "no 12 KB key is kept")
    }

    @Test func memoisedHitsShareOneBodyPerImage() async throws {
        let fixture = try BridgeFixture()
        let bridge = try await warmBridge(fixture)
        var bodies: [BodyBytes] = []
        for index in 0..<200 {
            let agent = userAgent(index, bytes: 64)
            // The first answer fills the memo, the second comes from it: both send the shared body.
            for _ in 0..<2 {
                let response = try #require(bridge.immediateResponse(to: request(userAgent: agent)))
                guard case .bytes(let body) = response.body else {
                    Issue.record("a memoised hit is sent from owned bytes, got \(response.body)")
                    return
                }
                bodies.append(body)
            }
        }
        let first = try #require(bodies.first)
        #expect(bodies.allSatisfy { $0 === first }, "one copy of the image for every client")
        let fullPath = await bridge.handle(request(userAgent: "the full path"))
        #expect(!first.isEmpty && first.data == fullPath.bodyData, "the image the full path sends")
        #expect(bridge.hitMemo.usage.count >= 200)
        #expect(bridge.hitMemo.sharedBodies == 1)
    }

    /// The table of shared bodies holds one entry per image some answer
    /// holds: flooded with distinct images past the memo's capacity, it
    /// shrinks with every eviction and replacement.
    @Test func sharedBodiesAreBoundedByTheMemo() throws {
        let memo = HitMemo(capacityBytes: 256 << 10)
        let body = Data(repeating: 7, count: 4096)
        let storedAt = Date(timeIntervalSince1970: 1_700_000_000)
        for index in 0..<5_000 {
            let image = ImageDataResponse(
                data: body, format: .webp, fetchedURL: try #require(URL(string: "http://o/\(index).jpg")),
                cacheKey: "image-\(index)", isVariant: true, isFallback: false, source: .memory,
                statusCode: 200, headers: [:], networkBytes: 0, storedAt: storedAt)
            let reply = BridgeProxy.Reply(
                response: .data(body, contentType: "image/webp"), outcome: .webp, upstreamBytes: 0)
            // Keys recur, so some inserts replace an answer rather than evict one.
            let kept = memo.insert(reply, image: image, for: "client-\(index % 3_000)")
            guard case .bytes(let sent) = kept.response.body else {
                Issue.record("the reply to send carries owned bytes, got \(kept.response.body)")
                return
            }
            #expect(sent.count == body.count)
            let usage = memo.usage
            #expect(memo.sharedBodies <= usage.count, "after insert \(index): \(memo.sharedBodies) > \(usage.count)")
        }
        let usage = memo.usage
        #expect(usage.bytes <= 256 << 10)
        #expect(usage.count > 10 && usage.count < 5_000, "evicted: \(usage)")
        #expect(memo.sharedBodies == usage.count, "each held answer is a distinct image here")
    }
}
