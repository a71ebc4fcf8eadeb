import Foundation
import Synchronization

/// Remembers variants that failed, so they are not retried on every request
/// while the CDN cannot make them; entries expire after a lifetime.
final class NegativeCache: Sendable {
    private let entries = Mutex<[String: Date]>([:])
    private let lifetime: TimeInterval
    /// Bounds memory: beyond this many entries the expired ones are dropped,
    /// then the oldest.
    private let maxEntries = 10_000

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    func contains(_ key: String, now: Date) -> Bool {
        entries.withLock { entries in
            guard let until = entries[key] else { return false }
            if until <= now {
                entries[key] = nil
                return false
            }
            return true
        }
    }

    func insert(_ key: String, now: Date) {
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
