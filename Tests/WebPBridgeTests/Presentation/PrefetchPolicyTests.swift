import Foundation
import TestTraits
import Testing
import WebPBridge

/// The prefetch policy's table: for each network condition, whether to
/// prefetch and at which tier; and what a tier does to a request.
@Suite(.timeLimit(.suiteBound))
struct PrefetchPolicyTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var policy = PrefetchPolicy()
        var conditions: NetworkConditions?
        var prefetches: Bool
        var tier: PrefetchPolicy.Tier

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no conditions reported yet: no prefetch", conditions: nil, prefetches: false, tier: .full),
        Row(
            name: "Wi-Fi or Ethernet: prefetch at the full tier (the seed's rule)", conditions: .unmetered,
            prefetches: true, tier: .full),
        Row(
            name: "cellular or hotspot: no prefetch, full tier for displays", conditions: .expensive,
            prefetches: false, tier: .full),
        Row(
            name: "cellular with prefetchesOnExpensive: prefetch at the full tier",
            policy: PrefetchPolicy(prefetchesOnExpensive: true), conditions: .expensive, prefetches: true,
            tier: .full),
        Row(name: "offline: no prefetch", conditions: .offline, prefetches: false, tier: .full),
        Row(
            name: "requires a connection: no prefetch",
            conditions: NetworkConditions(status: .requiresConnection, isExpensive: false, isConstrained: false),
            prefetches: false, tier: .full),
        Row(
            name: "offline on an expensive interface: no prefetch",
            conditions: NetworkConditions(status: .unsatisfied, isExpensive: true, isConstrained: true),
            prefetches: false, tier: .full),
        Row(
            name: "Low Data Mode on Wi-Fi: no prefetch, reduced tier",
            conditions: NetworkConditions(status: .satisfied, isExpensive: false, isConstrained: true),
            prefetches: false, tier: .reduced),
        Row(
            name: "Low Data Mode on cellular: no prefetch, reduced tier",
            conditions: NetworkConditions(status: .satisfied, isExpensive: true, isConstrained: true),
            prefetches: false, tier: .reduced),
        Row(
            name: "Low Data Mode on cellular even with prefetchesOnExpensive: no prefetch, reduced tier",
            policy: PrefetchPolicy(prefetchesOnExpensive: true),
            conditions: NetworkConditions(status: .satisfied, isExpensive: true, isConstrained: true),
            prefetches: false, tier: .reduced),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        let decision = row.policy.decision(for: row.conditions)
        #expect(decision.prefetches == row.prefetches)
        #expect(decision.tier == row.tier)
    }

    struct TierRow: Sendable, CustomTestStringConvertible {
        var name: String
        var scale: Double
        var size: ImageRequest.TargetSize?
        var tier: PrefetchPolicy.Tier
        var expected: ImageRequest.TargetSize?

        var testDescription: String { name }
    }

    static let tierRows: [TierRow] = [
        TierRow(
            name: "full tier: the request as built", scale: 0.5, size: .init(width: 640, height: 480),
            tier: .full, expected: .init(width: 640, height: 480)),
        TierRow(
            name: "reduced tier: half the target size", scale: 0.5, size: .init(width: 640, height: 480),
            tier: .reduced, expected: .init(width: 320, height: 240)),
        TierRow(
            name: "reduced tier rounds up", scale: 0.5, size: .init(width: 641, height: 3), tier: .reduced,
            expected: .init(width: 321, height: 2)),
        TierRow(
            name: "reduced tier never below one pixel", scale: 0.5, size: .init(width: 1, height: 1),
            tier: .reduced, expected: .init(width: 1, height: 1)),
        TierRow(
            name: "reduced tier with no target size sets none", scale: 0.5, size: nil, tier: .reduced,
            expected: nil),
        TierRow(
            name: "a scale of 0 is clamped to 0.05", scale: 0, size: .init(width: 1000, height: 100),
            tier: .reduced, expected: .init(width: 50, height: 5)),
        TierRow(
            name: "a scale above 1 is clamped to 1", scale: 4, size: .init(width: 100, height: 100),
            tier: .reduced, expected: .init(width: 100, height: 100)),
        TierRow(
            name: "a non-finite scale counts as 1", scale: .nan, size: .init(width: 100, height: 100),
            tier: .reduced, expected: .init(width: 100, height: 100)),
    ]

    @Test(arguments: tierRows)
    func tier(_ row: TierRow) {
        let policy = PrefetchPolicy(reducedScale: row.scale)
        let request = ImageRequest(url: URL(string: "https://img.example/a.jpg")!, targetSize: row.size)
        #expect(policy.request(request, at: row.tier).targetSize == row.expected)
        let prefetch = policy.prefetchRequest(request, at: row.tier)
        #expect(prefetch.priority == .low && prefetch.targetSize == row.expected)
        #expect(prefetch.savesData == (row.tier == .reduced), "the reduced tier asks for the smaller answer")
    }

    @Test func theReducedTierSavesDataUnlessTheAppSaysNot() {
        let request = ImageRequest(url: URL(string: "https://img.example/a.jpg")!)
        #expect(PrefetchPolicy().request(request, at: .reduced).savesData)
        #expect(!PrefetchPolicy().request(request, at: .full).savesData)
        #expect(!PrefetchPolicy(reducedSavesData: false).request(request, at: .reduced).savesData)
        var saving = request
        saving.savesData = true
        #expect(
            PrefetchPolicy(reducedSavesData: false).request(saving, at: .reduced).savesData,
            "the app's own choice stays")
        #expect(PrefetchPolicy().request(saving, at: .full).savesData)
    }
}
