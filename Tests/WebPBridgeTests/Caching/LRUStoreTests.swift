import TestTraits
import Testing

@testable import WebPBridge

/// The eviction order and accounting, with no per-entry overhead so the
/// figures stay round: each entry is charged its cost plus its key's bytes
/// (one for most keys here).
@Suite(.timeLimit(.suiteBound)) struct LRUStoreTests {
    private func evictedKeys(_ evicted: [LRUStore<Int>.Entry]) -> [String] { evicted.map(\.key) }

    @Test func evictsTheLeastRecentlyUsedFirst() {
        var store = LRUStore<Int>(capacity: 3, overhead: 0)
        #expect(store.insert(1, for: "a", cost: 0).isEmpty)
        #expect(store.insert(2, for: "b", cost: 0).isEmpty)
        #expect(store.insert(3, for: "c", cost: 0).isEmpty)
        #expect(store.value(for: "a") == 1, "a read makes a the newest")
        #expect(evictedKeys(store.insert(4, for: "d", cost: 0)) == ["b"])
        #expect(store.keys == ["c", "a", "d"])
        #expect(evictedKeys(store.insert(5, for: "e", cost: 0)) == ["c"])
        #expect(store.value(for: "b") == nil && store.value(for: "c") == nil)
        #expect(store.keys == ["a", "d", "e"], "a miss changes no order")
    }

    @Test func accountsForCosts() {
        var store = LRUStore<Int>(capacity: 100, overhead: 0)
        store.insert(1, for: "a", cost: 39)
        store.insert(2, for: "b", cost: 29)
        store.insert(3, for: "c", cost: 19)
        #expect(store.totalCost == 90 && store.count == 3, "costs and keys")
        let evicted = store.insert(4, for: "d", cost: 74)
        #expect(evictedKeys(evicted) == ["a", "b"], "as many of the oldest as it takes, oldest first")
        #expect(evicted.map(\.value) == [1, 2] && evicted.map(\.cost) == [39, 29])
        #expect(store.totalCost == 95 && store.count == 2)
        #expect(evictedKeys(store.insert(5, for: "e", cost: 24)) == ["c"])
        #expect(store.totalCost == 100, "exactly the capacity fits")
        #expect(store.remove("d") == 4)
        #expect(store.totalCost == 25 && store.count == 1)
    }

    @Test func reinsertingAKeyReplacesItsValueAndCost() {
        var store = LRUStore<Int>(capacity: 10, overhead: 0)
        store.insert(1, for: "a", cost: 1)
        store.insert(2, for: "b", cost: 1)
        store.insert(3, for: "c", cost: 1)
        #expect(store.insert(10, for: "a", cost: 2).isEmpty)
        #expect(store.count == 3 && store.totalCost == 7, "the old cost is given back")
        #expect(store.keys == ["b", "c", "a"], "the replaced entry is the newest")
        let evicted = store.insert(11, for: "a", cost: 7)
        #expect(evictedKeys(evicted) == ["b"], "growing evicts others, never itself")
        #expect(store.keys == ["c", "a"] && store.totalCost == 10)
        #expect(store.value(for: "a") == 11)
        #expect(store.insert(12, for: "a", cost: 0).isEmpty)
        #expect(store.totalCost == 3 && store.value(for: "a") == 12, "a's key is still charged")
    }

    @Test func removesOneEntryOrAll() {
        var store = LRUStore<Int>(capacity: 10, overhead: 0)
        store.insert(1, for: "a", cost: 2)
        store.insert(2, for: "b", cost: 2)
        store.insert(3, for: "c", cost: 2)
        #expect(store.remove("b") == 2)
        #expect(store.remove("b") == nil && store.remove("zzz") == nil)
        #expect(store.keys == ["a", "c"] && store.totalCost == 6)
        store.insert(4, for: "d", cost: 2)
        #expect(store.keys == ["a", "c", "d"], "a freed slot is reused in the right place")
        #expect(evictedKeys(store.insert(5, for: "e", cost: 2)) == ["a"])
        store.removeAll()
        #expect(store.isEmpty && store.count == 0 && store.totalCost == 0 && store.keys.isEmpty)
        #expect(store.capacity == 10)
        store.insert(6, for: "f", cost: 9)
        #expect(store.keys == ["f"] && store.value(for: "f") == 6, "usable after removeAll")
    }

    @Test func zeroCapacityKeepsNothingThatIsCharged() {
        var store = LRUStore<Int>(capacity: 0, overhead: 0)
        #expect(store.insert(1, for: "a", cost: 1).isEmpty)
        #expect(store.isEmpty && store.value(for: "a") == nil)
        store.insert(2, for: "a", cost: 0)
        #expect(store.isEmpty, "the key alone is charged")
        store.insert(3, for: "", cost: 0)
        #expect(store.value(for: "") == 3 && store.totalCost == 0)
        var charged = LRUStore<Int>(capacity: 0)
        charged.insert(4, for: "", cost: 0)
        #expect(charged.isEmpty, "by default every entry is charged its bookkeeping")
    }

    @Test func anEntryBiggerThanTheCapacityIsNotKept() {
        var store = LRUStore<Int>(capacity: 10, overhead: 0)
        store.insert(1, for: "a", cost: 3)
        store.insert(2, for: "b", cost: 3)
        #expect(store.insert(3, for: "big", cost: 8).isEmpty, "nothing is evicted for it: 8 + 3 for the key")
        #expect(store.value(for: "big") == nil)
        #expect(store.keys == ["a", "b"] && store.totalCost == 8)
        #expect(store.insert(4, for: "a", cost: 10).isEmpty)
        #expect(store.value(for: "a") == nil, "the value it would have replaced is not served either")
        #expect(store.keys == ["b"] && store.totalCost == 4)
    }

    /// Random inserts, reads and removals over a small key space, each
    /// checked against ``ReferenceLRU``: the answers, what is evicted and in
    /// which order, the use order, the count and the total cost.
    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func matchesAReferenceModel(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let capacity = Int(generator.next() % 60) + 20
        var store = LRUStore<Int>(capacity: capacity, overhead: 0)
        var model = ReferenceLRU(capacity: capacity)
        for step in 0..<4_000 {
            let key = "k\(generator.next() % 30)"
            switch generator.next() % 10 {
            case 0..<5:
                // Mostly small, sometimes free, now and then too big.
                let cost =
                    generator.next() % 20 == 0
                    ? capacity + 1 + Int(generator.next() % 5) : Int(generator.next() % UInt64(capacity / 3 + 2))
                let evicted = store.insert(step, for: key, cost: cost)
                let expected = model.insert(step, for: key, cost: cost)
                #expect(
                    evicted.map { ReferenceLRU.Entry(key: $0.key, value: $0.value, cost: $0.cost) } == expected,
                    "seed \(seed), step \(step): insert \(key) costing \(cost)")
            case 5..<8:
                #expect(store.value(for: key) == model.value(for: key), "seed \(seed), step \(step): read \(key)")
            case 8:
                #expect(store.remove(key) == model.remove(key), "seed \(seed), step \(step): remove \(key)")
            default:
                if generator.next() % 50 == 0 {
                    store.removeAll()
                    model = ReferenceLRU(capacity: capacity)
                } else {
                    #expect(store.value(for: key) == model.value(for: key))
                }
            }
            #expect(store.keys == model.keys, "seed \(seed), step \(step): use order")
            #expect(store.totalCost == model.totalCost && store.count == model.entries.count)
            #expect(store.totalCost <= capacity)
        }
    }
}
