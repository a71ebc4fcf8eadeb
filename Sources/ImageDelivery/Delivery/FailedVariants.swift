import ConcurrencySupport
import Foundation

/// Variants in formats other than WebP (AVIF) that failed recently, so that
/// for a while their clients go straight to the fallback instead of asking
/// the upstream again — the pipeline's negative cache does the same for
/// WebP variants.
///
/// Bounded: at most ``capacity`` keys of at most ``maxKeyBytes`` each (a
/// longer key is not remembered), so a flood of failing URLs costs at most
/// `capacity × maxKeyBytes` bytes of keys; the oldest entry goes first, and
/// since every entry lives as long, the oldest is also the first to expire.
/// Thread-safe: one lock around the table.
final class FailedVariants: Sendable {
    private struct State {
        var expiries: [String: Date] = [:]
        /// Keys in insertion order, from `head`.
        var order: [String] = []
        var head = 0
    }

    /// The most keys kept.
    let capacity: Int
    /// The longest key kept, in UTF-8 bytes.
    let maxKeyBytes: Int
    /// How long a failure is remembered.
    let lifetime: TimeInterval
    private let state = Lock(State())

    init(capacity: Int = 1024, maxKeyBytes: Int = 4096, lifetime: TimeInterval) {
        self.capacity = max(1, capacity)
        self.maxKeyBytes = maxKeyBytes
        self.lifetime = lifetime
    }

    /// Whether `key` failed less than ``lifetime`` ago.
    func contains(_ key: String, now: Date) -> Bool {
        state.withLock { $0.expiries[key].map { $0 > now } ?? false }
    }

    /// Remembers that `key` failed at `now`.
    func insert(_ key: String, now: Date) {
        guard lifetime > 0, key.utf8.count <= maxKeyBytes else { return }
        state.withLock { state in
            if state.expiries.updateValue(now.addingTimeInterval(lifetime), forKey: key) != nil {
                return  // already queued; its slot ages with the first failure, which only shortens its life
            }
            state.order.append(key)
            while state.expiries.count > capacity {
                let oldest = state.order[state.head]
                state.head += 1
                state.expiries[oldest] = nil
            }
            // Drop the consumed prefix now and then, so `order` stays within twice the capacity.
            if state.head >= capacity {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Keys remembered now (expired ones included until pushed out).
    var count: Int { state.withLock { $0.expiries.count } }
}
