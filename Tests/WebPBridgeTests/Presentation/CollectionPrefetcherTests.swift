import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The collection-view prefetcher under the policy: what reaches the
/// pipeline's prefetch and cancel for each condition and change, fed
/// directly and through a scripted condition source.
@MainActor
@Suite(.timeLimit(.suiteBound))
struct CollectionPrefetcherTests {
    /// Records what the prefetcher asks of the pipeline.
    final class RecordingPrefetching: ImagePrefetching, @unchecked Sendable {
        // @unchecked: every property is behind `lock`.
        private let lock = NSLock()
        private var _prefetched: [ImageRequest] = []
        private var _cancelled: [ImageRequest] = []

        var prefetched: [ImageRequest] { lock.withLock { _prefetched } }
        var cancelled: [ImageRequest] { lock.withLock { _cancelled } }

        func prefetch(_ requests: [ImageRequest]) { lock.withLock { _prefetched += requests } }
        func cancelPrefetch(_ requests: [ImageRequest]) { lock.withLock { _cancelled += requests } }
    }

    nonisolated static func request(_ index: Int) -> ImageRequest {
        ImageRequest(url: URL(string: "https://img.example/\(index).jpg")!, targetSize: .init(width: 400, height: 300))
    }

    private func makePrefetcher() -> (CollectionPrefetcher, RecordingPrefetching) {
        let recorder = RecordingPrefetching()
        let prefetcher = CollectionPrefetcher(prefetching: recorder) { Self.request($0[1]) }
        return (prefetcher, recorder)
    }

    @Test func onWiFiItemsArePrefetchedAtLowPriorityAndFullTier() {
        let (prefetcher, recorder) = makePrefetcher()
        prefetcher.update(.unmetered)
        prefetcher.prefetchItems(at: [[0, 1], [0, 2]])
        #expect(recorder.prefetched.map(\.url) == [Self.request(1).url, Self.request(2).url])
        #expect(
            recorder.prefetched.allSatisfy { $0.priority == .low && $0.targetSize == .init(width: 400, height: 300) })
        #expect(prefetcher.trackedCount == 2)
    }

    @Test(arguments: [nil, NetworkConditions.expensive, .offline, .lowData])
    func noPrefetchWhereThePolicySaysNo(_ conditions: NetworkConditions?) {
        let (prefetcher, recorder) = makePrefetcher()
        if let conditions { prefetcher.update(conditions) }
        prefetcher.prefetchItems(at: [[0, 1]])
        #expect(recorder.prefetched.isEmpty)
        #expect(prefetcher.trackedCount == 0)
    }

    @Test func cancellingAnItemCancelsTheRequestThatWasSent() {
        let (prefetcher, recorder) = makePrefetcher()
        prefetcher.update(.unmetered)
        prefetcher.prefetchItems(at: [[0, 1], [0, 2]])
        prefetcher.cancelPrefetchingForItems(at: [[0, 2], [0, 9]])
        #expect(recorder.cancelled == [recorder.prefetched[1]], "only what was started is cancelled, as sent")
        #expect(prefetcher.trackedCount == 1)
    }

    @Test(arguments: [NetworkConditions.expensive, .offline, .lowData])
    func leavingWiFiCancelsEveryStartedPrefetch(_ conditions: NetworkConditions) {
        let (prefetcher, recorder) = makePrefetcher()
        prefetcher.update(.unmetered)
        prefetcher.prefetch((0..<3).map(Self.request))
        prefetcher.update(conditions)
        #expect(recorder.cancelled == recorder.prefetched)
        #expect(prefetcher.trackedCount == 0)
    }

    @Test func aChangeThatKeepsTheDecisionCancelsNothing() {
        let (prefetcher, recorder) = makePrefetcher()
        prefetcher.update(.unmetered)
        prefetcher.prefetch([Self.request(0)])
        prefetcher.update(NetworkConditions(status: .satisfied, isExpensive: false, isConstrained: false))
        #expect(recorder.cancelled.isEmpty)
    }

    @Test func lowDataModeDisplaysAtTheReducedTier() {
        let (prefetcher, _) = makePrefetcher()
        prefetcher.update(.lowData)
        #expect(prefetcher.displayRequest(Self.request(0)).targetSize == .init(width: 200, height: 150))
        prefetcher.update(.unmetered)
        #expect(prefetcher.displayRequest(Self.request(0)).targetSize == .init(width: 400, height: 300))
    }

    /// A flood of prefetches keeps at most `maximumTracked` to cancel, and
    /// leaving Wi-Fi cancels exactly those.
    @Test func aFloodOfPrefetchesIsTrackedWithinTheBound() {
        let (prefetcher, recorder) = makePrefetcher()
        prefetcher.update(.unmetered)
        for start in stride(from: 0, to: 20_000, by: 100) {
            prefetcher.prefetch((start..<start + 100).map(Self.request))
            #expect(prefetcher.trackedCount <= CollectionPrefetcher.maximumTracked)
        }
        #expect(recorder.prefetched.count == 20_000)
        prefetcher.update(.offline)
        #expect(recorder.cancelled.count == CollectionPrefetcher.maximumTracked)
        #expect(recorder.cancelled.last?.url == Self.request(19_999).url, "the newest are the ones kept")
    }

    @Test func aScriptedSourceDrivesThePrefetcher() async {
        let (prefetcher, recorder) = makePrefetcher()
        await prefetcher.follow(ScriptedConditions([.offline, .unmetered]))
        #expect(prefetcher.conditions == .unmetered)
        prefetcher.prefetch([Self.request(0), Self.request(1)])
        #expect(recorder.prefetched.count == 2)
        await prefetcher.follow(ScriptedConditions([.expensive, .lowData]))
        #expect(prefetcher.conditions == NetworkConditions.lowData)
        #expect(prefetcher.decision == PrefetchPolicy.Decision(prefetches: false, tier: .reduced))
        #expect(recorder.cancelled == recorder.prefetched, "cellular cancelled what Wi-Fi started")
        prefetcher.prefetch([Self.request(2)])
        #expect(recorder.prefetched.count == 2, "nothing more under Low Data Mode")
    }
}
