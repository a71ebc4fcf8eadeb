import Synchronization

/// Transformed variants in memory, bounded in bytes, least recently used
/// evicted first, so a repeated request costs no transformation.
///
/// Thread-safe: one `Mutex` guards the state.
public final class VariantCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalCost = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// The most bytes kept.
    public let capacity: Int
    private let state = Mutex(State())

    /// Creates a cache of at most `capacity` bytes.
    public init(capacity: Int) {
        precondition(capacity >= 0)
        self.capacity = capacity
    }

    /// The value for `key`, marking it recently used.
    public func value(for key: String) -> Value? {
        state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.value
        }
    }

    /// Stores `value` costing `cost` bytes; a value larger than the whole
    /// cache is not stored.
    public func insert(_ value: Value, cost: Int, for key: String) {
        guard cost <= capacity else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.totalCost -= old.cost }
            state.entries[key] = Entry(value: value, cost: cost, lastUse: state.clock)
            state.totalCost += cost
            if state.totalCost > capacity { Self.evict(&state, toFit: capacity) }
        }
    }

    /// Evicts least recently used entries until the total fits. Sorting once
    /// per eviction round keeps inserts cheap; rounds free a quarter of the
    /// capacity so they stay rare.
    private static func evict(_ state: inout State, toFit capacity: Int) {
        let target = capacity - capacity / 4
        let ordered = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in ordered where state.totalCost > target {
            state.entries[key] = nil
            state.totalCost -= entry.cost
        }
    }

    /// Bytes held, entries, hits and misses so far.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.totalCost, $0.entries.count, $0.hits, $0.misses) }
    }
}
