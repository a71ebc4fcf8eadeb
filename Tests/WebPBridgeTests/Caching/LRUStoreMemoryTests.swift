import TestTraits
import Testing
import WebPBridge

/// What an `LRUStore` charges: the key and a per-entry overhead as well as
/// the owner's cost, so a flood of long keys with small values stays within
/// the capacity; keys past the bound are not kept at all.
@Suite(.timeLimit(.suiteBound))
struct LRUStoreMemoryTests {
    private func key(_ index: Int, bytes: Int) -> String {
        let suffix = String(index)
        return String(repeating: "k", count: bytes - suffix.utf8.count) + suffix
    }

    @Test func longKeysCountAgainstTheCapacity() {
        var store = LRUStore<Int>(capacity: 1 << 20)
        let keyBytes = 3_000
        for index in 0..<2_000 { store.insert(index, for: key(index, bytes: keyBytes), cost: 1) }
        #expect(store.count * keyBytes <= store.capacity, "\(store.count) keys of \(keyBytes) bytes")
        #expect(store.totalCost >= store.count * (keyBytes + 1), "the keys are accounted")
        #expect(store.totalCost <= store.capacity)
    }

    @Test func aKeyLongerThanTheBoundIsNotKept() {
        var store = LRUStore<Int>(capacity: 1 << 20)
        store.insert(1, for: String(repeating: "k", count: 4_097), cost: 1)
        #expect(store.isEmpty && store.totalCost == 0)
        store.insert(2, for: String(repeating: "k", count: 4_096), cost: 1)
        #expect(store.count == 1, "a key of exactly the bound is kept")
    }
}
