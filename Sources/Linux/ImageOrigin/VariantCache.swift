import WebPBridge

/// Transformed variants in memory, bounded in bytes, least recently used
/// evicted first, so a repeated request costs no transformation. Each
/// entry is charged its value's bytes plus its key and the store's
/// bookkeeping (see `LRUStore`); a key longer than 4 KiB is not cached.
///
/// Thread-safe: one `Lock` guards an `LRUStore` and the hit and miss
/// counts, so lookups, inserts and each eviction are O(1).
public final class VariantCache<Value: Sendable>: Sendable {
    private struct State {
        var values: LRUStore<Value>
        var hits = 0
        var misses = 0
    }

    /// The most bytes kept, keys included.
    public let capacity: Int
    private let state: Lock<State>

    /// Creates a cache of at most `capacity` bytes, keys included.
    public init(capacity: Int) {
        precondition(capacity >= 0)
        self.capacity = capacity
        state = Lock(State(values: LRUStore(capacity: capacity)))
    }

    /// The value for `key`, marking it recently used; counted as a hit or a
    /// miss.
    public func value(for key: String) -> Value? {
        state.withLock { state in
            let value = state.values.value(for: key)
            if value == nil { state.misses += 1 } else { state.hits += 1 }
            return value
        }
    }

    /// Stores `value` holding `cost` bytes, evicting the least recently
    /// used past ``capacity``; a value whose charge exceeds the whole cache,
    /// or a key longer than 4 KiB, is not stored (and an older value under
    /// `key` stays).
    public func insert(_ value: Value, cost: Int, for key: String) {
        state.withLock { state in
            guard state.values.admits(key: key, cost: cost) else { return }
            state.values.insert(value, for: key, cost: cost)
        }
    }

    /// Bytes accounted (values, keys and bookkeeping), entries, hits and
    /// misses so far.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.values.totalCost, $0.values.count, $0.hits, $0.misses) }
    }
}
