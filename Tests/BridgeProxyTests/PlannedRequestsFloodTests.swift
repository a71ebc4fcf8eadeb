import Foundation
import HTTPServer
import TestTraits
import Testing
import WebPBridge

@testable import BridgeProxy

/// Routes the immediate path keeps for `handle` stay within their bytes
/// when requests never come back for them (a flood of distinct misses, a
/// server shutting down), and a request too long to key is not kept.
@Suite(.timeLimit(.suiteBound))
struct PlannedRequestsFloodTests {
    @Test func aFloodOfRoutesNeverTakenStaysWithinTheBound() throws {
        let capacity = 64 << 10
        let kept = PlannedRequests(capacityBytes: capacity)
        let bridge = try BridgeFixture().bridge()
        for index in 0..<5_000 {
            let request = HTTPRequest(
                target: "/photo.jpg?n=\(index)",
                headers: ["Host": "b", "Accept": BridgeFixture.webPAccept, "User-Agent": "flood/\(index)"])
            kept.keep(bridge.route(request), for: request)
            #expect(kept.totalBytes <= capacity)
        }
        #expect(kept.count > 0 && kept.count < 5_000, "\(kept.count)")
        // The newest is still there, taken once; the oldest was pushed out.
        let newest = HTTPRequest(
            target: "/photo.jpg?n=4999",
            headers: ["Host": "b", "Accept": BridgeFixture.webPAccept, "User-Agent": "flood/4999"])
        #expect(kept.take(for: newest) != nil)
        #expect(kept.take(for: newest) == nil)
        let oldest = HTTPRequest(
            target: "/photo.jpg?n=0",
            headers: ["Host": "b", "Accept": BridgeFixture.webPAccept, "User-Agent": "flood/0"])
        #expect(kept.take(for: oldest) == nil)
    }

    @Test func aRequestTooLongToKeyIsNotKept() throws {
        let kept = PlannedRequests(capacityBytes: 1 << 20)
        let bridge = try BridgeFixture().bridge()
        let request = HTTPRequest(
            target: "/photo.jpg", headers: ["Host": "b", "User-Agent": String(repeating: "u", count: 5_000)])
        kept.keep(bridge.route(request), for: request)
        #expect(kept.count == 0)
        #expect(kept.take(for: request) == nil)
    }
}
