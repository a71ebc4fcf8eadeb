import ImageOrigin
import TestTraits
import Testing

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor) struct VariantCacheTests {
    /// What one entry with a one-byte key holding `cost` bytes is charged.
    private func charge(_ cost: Int) -> Int {
        let probe = VariantCache<String>(capacity: 1 << 20)
        probe.insert("v", cost: cost, for: "k")
        return probe.statistics.bytes
    }

    @Test func countsHitsAndMissesAndEvictsTheLeastRecentlyUsed() {
        let entry = charge(40)
        #expect(entry > 40, "the key and the bookkeeping are charged")
        let cache = VariantCache<String>(capacity: 2 * entry + entry / 2)
        cache.insert("a", cost: 40, for: "a")
        cache.insert("b", cost: 40, for: "b")
        #expect(cache.value(for: "a") == "a")
        cache.insert("c", cost: 40, for: "c")
        #expect(cache.value(for: "b") == nil, "b was the least recently used")
        #expect(cache.value(for: "a") == "a" && cache.value(for: "c") == "c", "only as much as needed is evicted")
        let statistics = cache.statistics
        #expect(statistics.bytes == 2 * entry && statistics.entries == 2)
        #expect(statistics.hits == 3 && statistics.misses == 1)
    }

    @Test func aValueLargerThanTheCacheIsNotStored() {
        let cache = VariantCache<String>(capacity: charge(100))
        cache.insert("old", cost: 10, for: "a")
        cache.insert("huge", cost: 101, for: "a")
        #expect(cache.value(for: "a") == "old", "the value already there stays")
        cache.insert("new", cost: 20, for: "a")
        #expect(cache.value(for: "a") == "new")
        #expect(cache.statistics.bytes == charge(20) && cache.statistics.entries == 1)
        let disabled = VariantCache<String>(capacity: 0)
        disabled.insert("x", cost: 1, for: "x")
        #expect(disabled.value(for: "x") == nil && disabled.statistics.entries == 0)
    }
}
