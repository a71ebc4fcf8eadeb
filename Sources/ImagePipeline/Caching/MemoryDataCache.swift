public import Foundation
import Synchronization

/// Keeps response bodies as received in memory: the ``DataCaching`` for a
/// process that has no cache folder (the bridge proxy without
/// `--cache-dir`). Same HTTP rules as ``DiskCache`` (the ``CachePolicy``),
/// gone when the process ends.
///
/// Bounded by the bytes of the bodies it holds; past ``capacity`` the least
/// recently used entries are evicted, and a body bigger than the capacity is
/// not stored. Thread-safe: one `Mutex` guards the table.
public final class MemoryDataCache: DataCaching, Sendable {
    /// 64 MiB, the default ``capacity``.
    public static let defaultCapacity = 64 << 20

    /// The most body bytes held together.
    public let capacity: Int
    /// Whether to store a response and for how long.
    public let policy: CachePolicy

    private struct Slot {
        var entry: CachedEntry
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var totalBytes = 0
        var useCounter: UInt64 = 0

        mutating func nextUse() -> UInt64 {
            useCounter += 1
            return useCounter
        }

        mutating func remove(_ key: String) {
            if let slot = slots.removeValue(forKey: key) { totalBytes -= slot.entry.data.count }
        }
    }

    private let state = Mutex(State())

    /// Creates an empty cache.
    /// - Parameters:
    ///   - capacity: The most body bytes held; 64 MiB by default.
    ///   - policy: What is stored and for how long; the default ``CachePolicy``.
    public init(capacity: Int = MemoryDataCache.defaultCapacity, policy: CachePolicy = CachePolicy()) {
        self.capacity = max(0, capacity)
        self.policy = policy
    }

    /// The entry under `key`, fresh or stale, or `nil`; a hit counts as a use.
    public func entry(for key: String) -> CachedEntry? {
        state.withLock { state in
            guard state.slots[key] != nil else { return nil }
            state.slots[key]!.lastUse = state.nextUse()
            return state.slots[key]!.entry
        }
    }

    /// Stores `response` under `key` when the policy allows and it fits; a
    /// refused `200` removes the entry it supersedes.
    /// - Returns: Whether it was stored.
    @discardableResult
    public func store(_ response: DataResponse, for key: String, now: Date) -> Bool {
        guard let entry = policy.entry(for: response, key: key, now: now), entry.data.count <= capacity else {
            if response.statusCode == 200 { remove(key) }
            return false
        }
        insert(entry)
        return true
    }

    /// Applies a `304 Not Modified` to `key`'s entry (see
    /// ``CachePolicy/refreshed(_:with:now:)``).
    /// - Returns: The updated entry; `nil` when there is none or the 304
    ///   cannot apply (then the entry is removed).
    @discardableResult
    public func refresh(_ key: String, with notModified: DataResponse, now: Date) -> CachedEntry? {
        guard notModified.statusCode == 304, let entry = entry(for: key) else { return nil }
        guard let updated = policy.refreshed(entry, with: notModified, now: now) else {
            remove(key)
            return nil
        }
        insert(updated)
        return updated
    }

    /// Removes `key`'s entry, if any.
    public func remove(_ key: String) {
        state.withLock { $0.remove(key) }
    }

    /// Removes every entry.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Body bytes held now.
    public var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// Entries held now.
    public var count: Int { state.withLock { $0.slots.count } }

    private func insert(_ entry: CachedEntry) {
        state.withLock { state in
            state.remove(entry.key)
            state.slots[entry.key] = Slot(entry: entry, lastUse: state.nextUse())
            state.totalBytes += entry.data.count
            while state.totalBytes > capacity,
                let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.remove(oldest)
            }
        }
    }
}
