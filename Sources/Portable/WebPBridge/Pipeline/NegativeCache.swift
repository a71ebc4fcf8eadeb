public import Foundation

/// Remembers keys for a while: variants that failed (or outweigh their
/// original), so they are not retried on every request while the CDN
/// cannot make them. One per pipeline, for the whole fallback ladder: the
/// WebP variants the pipeline falls back from and the AVIF variants the
/// bridge core falls back from, each under the key of the URL it fetches.
/// Entries expire after a lifetime.
///
/// Bounded in bytes, keys included (an `LRUStore`: the least recently used
/// key goes first, in O(1)); a key longer than
/// `LRUStore.defaultMaxKeyBytes` (4 KiB) is not remembered, so its request
/// simply takes the full path again.
public final class NegativeCache: Sendable {
    /// 4 MiB, the default ``capacityBytes``: some 8,000 keys of 200 bytes.
    public static let defaultCapacityBytes = 4 << 20

    /// The most bytes held, keys and bookkeeping included.
    public let capacityBytes: Int
    private let entries: Lock<State>
    private let lifetime: TimeInterval

    private struct State {
        var store: LRUStore<Date>
        var hits = 0
    }

    /// What the cache holds and how often it answered, for a server's `/metrics`.
    public struct Statistics: Sendable, Equatable {
        /// Bytes accounted, keys and bookkeeping included.
        public var bytes: Int
        /// Keys remembered (expired ones included until they are dropped).
        public var entries: Int
        /// Lookups that found a live key: fetches the ladder skipped.
        public var hits: Int
    }

    /// - Parameters:
    ///   - lifetime: How long an inserted key is remembered, in seconds.
    ///   - capacityBytes: The most bytes held; 4 MiB by default.
    public init(lifetime: TimeInterval, capacityBytes: Int = NegativeCache.defaultCapacityBytes) {
        self.lifetime = lifetime
        self.capacityBytes = max(0, capacityBytes)
        entries = Lock(State(store: LRUStore(capacity: self.capacityBytes)))
    }

    /// Whether `key` was inserted less than the lifetime before `now`.
    public func contains(_ key: String, now: Date) -> Bool {
        entries.withLock { state in
            guard let until = state.store.value(for: key) else { return false }
            if until <= now {
                state.store.remove(key)
                return false
            }
            state.hits += 1
            return true
        }
    }

    /// Remembers `key` from `now` for the lifetime (unless the key is
    /// longer than the key bound).
    public func insert(_ key: String, now: Date) {
        let until = now.addingTimeInterval(lifetime)
        entries.withLock { _ = $0.store.insert(until, for: key, cost: MemoryLayout<Date>.size) }
    }

    /// Keys remembered now (expired ones included until they are dropped).
    public var count: Int { entries.withLock { $0.store.count } }

    /// Bytes accounted now, keys included.
    public var totalBytes: Int { entries.withLock { $0.store.totalCost } }

    /// Bytes, entries and hits, read at once.
    public var statistics: Statistics {
        entries.withLock { Statistics(bytes: $0.store.totalCost, entries: $0.store.count, hits: $0.hits) }
    }
}
