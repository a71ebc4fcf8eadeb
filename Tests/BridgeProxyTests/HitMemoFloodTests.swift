import Foundation
import HTTPServer
import ImageDelivery
import ImagePipeline
import TestTraits
import Testing

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
}
