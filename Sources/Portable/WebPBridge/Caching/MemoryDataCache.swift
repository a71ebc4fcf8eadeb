public import Foundation

/// Keeps response bodies as received in memory: the ``DataCaching`` for a
/// process that has no cache folder (the bridge proxy without
/// `--cache-dir`). Same HTTP rules as ``DiskCache`` (the ``CachePolicy``),
/// gone when the process ends.
///
/// Bounded in bytes, every entry charged in full: its body, its URL and
/// stored header values, its key and the store's bookkeeping. Past
/// ``capacity`` the least recently used entries are evicted; an entry
/// bigger than the capacity, or under a key longer than 4 KiB
/// (`LRUStore.defaultMaxKeyBytes`), is not stored. Thread-safe: one `Lock`
/// guards an `LRUStore`, so a store past the capacity evicts in O(1) per
/// entry however many entries are held.
public final class MemoryDataCache: DataCaching, Sendable {
    /// 64 MiB, the default ``capacity``.
    public static let defaultCapacity = 64 << 20

    /// The most bytes held together, keys and metadata included.
    public let capacity: Int
    /// Whether to store a response and for how long.
    public let policy: CachePolicy

    private let entries: Lock<LRUStore<CachedEntry>>

    /// Creates an empty cache.
    /// - Parameters:
    ///   - capacity: The most bytes held, keys and metadata included; 64 MiB
    ///     by default.
    ///   - policy: What is stored and for how long; the default ``CachePolicy``.
    public init(capacity: Int = MemoryDataCache.defaultCapacity, policy: CachePolicy = CachePolicy()) {
        self.capacity = max(0, capacity)
        self.policy = policy
        entries = Lock(LRUStore(capacity: self.capacity))
    }

    /// The entry under `key`, fresh or stale, or `nil`; a hit counts as a use.
    public func entry(for key: String) -> CachedEntry? {
        entries.withLock { $0.value(for: key) }
    }

    /// Stores `response` under `key` when the policy allows and it fits; a
    /// refused `200` removes the entry it supersedes.
    /// - Returns: Whether it was stored.
    @discardableResult
    public func store(_ response: DataResponse, for key: String, now: Date) -> Bool {
        guard let entry = policy.entry(for: response, key: key, now: now), insert(entry) else {
            if response.statusCode == 200 { remove(key) }
            return false
        }
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
        guard insert(updated) else {
            remove(key)
            return nil
        }
        return updated
    }

    /// Removes `key`'s entry, if any.
    public func remove(_ key: String) {
        entries.withLock { _ = $0.remove(key) }
    }

    /// Removes every entry.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Bytes accounted now: bodies, metadata, keys and bookkeeping.
    public var totalBytes: Int { entries.withLock { $0.totalCost } }

    /// Entries held now.
    public var count: Int { entries.withLock { $0.count } }

    /// Keeps `entry` when the store admits it; the caller removes what it supersedes.
    private func insert(_ entry: CachedEntry) -> Bool {
        let cost = entry.heldBytes
        return entries.withLock { entries in
            guard entries.admits(key: entry.key, cost: cost) else { return false }
            entries.insert(entry, for: entry.key, cost: cost)
            return true
        }
    }
}

extension CachedEntry {
    /// The bytes an entry holds besides its key: the body, the URL and the
    /// stored header values, plus 128 for the heap objects of the body and
    /// the URL.
    var heldBytes: Int {
        let headers = [contentType, etag, lastModified, cacheControl, expires].reduce(0) {
            $0 + ($1?.utf8.count ?? 0)
        }
        return data.count + url.absoluteString.utf8.count + headers + MemoryLayout<CachedEntry>.stride + 128
    }
}
