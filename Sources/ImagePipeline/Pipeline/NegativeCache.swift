public import Foundation
import Synchronization

/// Remembers keys for a while: variants that failed, so they are not
/// retried on every request while the CDN cannot make them (the
/// pipeline's), or images whose transcode outweighs the original (the
/// bridge's). Entries expire after a lifetime; at most 10,000 are kept.
public final class NegativeCache: Sendable {
    private let entries = Mutex<[String: Date]>([:])
    private let lifetime: TimeInterval
    /// Bounds memory: beyond this many entries the expired ones are dropped,
    /// then the oldest.
    private let maxEntries = 10_000

    /// - Parameter lifetime: How long an inserted key is remembered, in seconds.
    public init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    /// Whether `key` was inserted less than the lifetime before `now`.
    public func contains(_ key: String, now: Date) -> Bool {
        entries.withLock { entries in
            guard let until = entries[key] else { return false }
            if until <= now {
                entries[key] = nil
                return false
            }
            return true
        }
    }

    /// Keys remembered now (expired ones included until they are dropped).
    public var count: Int { entries.withLock { $0.count } }

    /// Remembers `key` from `now` for the lifetime.
    public func insert(_ key: String, now: Date) {
        entries.withLock { entries in
            entries[key] = now.addingTimeInterval(lifetime)
            if entries.count > maxEntries {
                entries = entries.filter { $0.value > now }
                while entries.count > maxEntries, let oldest = entries.min(by: { $0.value < $1.value }) {
                    entries[oldest.key] = nil
                }
            }
        }
    }
}
