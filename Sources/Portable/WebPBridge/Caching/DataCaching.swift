public import Foundation

/// Keeps response bodies, as received, under a string key (for the pipeline,
/// the rewritten URL), with what HTTP caching needs: freshness and
/// validators. ``DiskCache`` is the default implementation.
///
/// Implementations are thread-safe, and never throw at use: a cache that
/// cannot read or write behaves as a miss, so it can slow a load down but
/// never fail one.
public protocol DataCaching: Sendable {
    /// The entry stored under `key`, fresh or stale (see
    /// ``CachedEntry/isFresh(now:)``), or `nil` on a miss. Counts as a use
    /// for eviction order.
    func entry(for key: String) -> CachedEntry?

    /// Stores `response` under `key` if its status and headers allow it (see
    /// ``CachePolicy``), replacing any previous entry.
    ///
    /// - Returns: whether it was stored.
    @discardableResult
    func store(_ response: DataResponse, for key: String, now: Date) -> Bool

    /// Applies a `304 Not Modified`, received at `now` in answer to a
    /// revalidation of `key`, to the stored entry: new validators and a new
    /// freshness lifetime, same body.
    ///
    /// - Returns: the updated entry, or `nil` when there was no entry or the
    ///   304 cannot apply to it (then the entry is removed, and the resource
    ///   should be fetched again).
    @discardableResult
    func refresh(_ key: String, with notModified: DataResponse, now: Date) -> CachedEntry?

    /// Removes the entry stored under `key`, if any.
    func remove(_ key: String)

    /// Removes every entry.
    func removeAll()
}
