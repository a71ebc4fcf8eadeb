import CacheSupport
import ConcurrencySupport
public import Foundation

/// Remembers keys for a while: variants that failed, so they are not
/// retried on every request while the CDN cannot make them (the
/// pipeline's), or images whose transcode outweighs the original (the
/// bridge's). Entries expire after a lifetime.
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
    private let entries: Lock<LRUStore<Date>>
    private let lifetime: TimeInterval

    /// - Parameters:
    ///   - lifetime: How long an inserted key is remembered, in seconds.
    ///   - capacityBytes: The most bytes held; 4 MiB by default.
    public init(lifetime: TimeInterval, capacityBytes: Int = NegativeCache.defaultCapacityBytes) {
        self.lifetime = lifetime
        self.capacityBytes = max(0, capacityBytes)
        entries = Lock(LRUStore(capacity: self.capacityBytes))
    }

    /// Whether `key` was inserted less than the lifetime before `now`.
    public func contains(_ key: String, now: Date) -> Bool {
        entries.withLock { entries in
            guard let until = entries.value(for: key) else { return false }
            if until <= now {
                entries.remove(key)
                return false
            }
            return true
        }
    }

    /// Remembers `key` from `now` for the lifetime (unless the key is
    /// longer than the key bound).
    public func insert(_ key: String, now: Date) {
        let until = now.addingTimeInterval(lifetime)
        entries.withLock { _ = $0.insert(until, for: key, cost: MemoryLayout<Date>.size) }
    }

    /// Keys remembered now (expired ones included until they are dropped).
    public var count: Int { entries.withLock { $0.count } }

    /// Bytes accounted now, keys included.
    public var totalBytes: Int { entries.withLock { $0.totalCost } }
}
