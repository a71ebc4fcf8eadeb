public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A size-bounded, crash-safe cache of response bodies on disk, keyed by a
/// string (for the pipeline, the rewritten URL), that stores the bytes as
/// received (a WebP stays a WebP) and honours HTTP caching (``CachePolicy``).
///
/// **Crash safety.** Each entry is one file (see `EntryFile` for the format:
/// a header with lengths and a checksum, the metadata, the body), written to
/// a temporary file in the cache folder and then renamed into place, so a
/// reader sees either the old file or the whole new one. There is no separate
/// index file that could be torn: the in-memory index is rebuilt at open by
/// scanning the folder, temporary files left by a crash are deleted, and any
/// file whose header, length or checksum does not verify is deleted and
/// treated as a miss. A crash or `kill -9` at any moment therefore never
/// serves a torn entry.
///
/// **Keys.** A file is named after a 128-bit hash of its key; the key itself
/// is stored inside and compared on every read, so two keys never share an
/// entry (in the astronomically unlikely case of a hash collision, the later
/// store replaces the earlier and the earlier key misses).
///
/// **Eviction.** Least recently used first, once the files pass
/// ``Configuration/capacity`` (checked after every store, at open, and by
/// ``sweep()``), down to 90% of it. Use order is kept in memory and written to each file's
/// modification date, so it roughly survives a restart.
///
/// **Thread safety.** All methods may be called from any thread. One `Lock`
/// guards the index; reading and writing entry files happens outside it, and
/// only the cheap `rename` and `unlink` calls that must agree with the index
/// run under it. One process should own a folder at a time: opening a folder
/// deletes the temporary files in it, including another process's in-flight
/// ones.
public final class DiskCache: DataCaching, Sendable {
    private struct Record {
        var size: Int
        /// Position in use order; higher is more recent.
        var lastUse: UInt64
        /// Bumped whenever the file is replaced, so a reader that found a
        /// damaged file deletes it only if nobody replaced it meanwhile.
        var generation: UInt64
    }

    private struct State {
        var records: [String: Record] = [:]
        var totalBytes = 0
        var useCounter: UInt64 = 0
        var generationCounter: UInt64 = 0

        mutating func nextUse() -> UInt64 {
            useCounter += 1
            return useCounter
        }

        mutating func nextGeneration() -> UInt64 {
            generationCounter += 1
            return generationCounter
        }
    }

    /// The prefix of temporary files; anything with it is a leftover at open.
    static let temporaryPrefix = ".tmp-"
    /// The extension of entry files.
    static let entryExtension = ".entry"

    /// The folder the entry files live in.
    public let folder: URL
    /// The limits and policy in force.
    public let configuration: Configuration
    private let clock: @Sendable () -> Date
    private let fileName: @Sendable (String) -> String
    private let state = Lock(State())

    /// Opens (creating it if needed) the cache in `folder`: deletes temporary
    /// files left by a crash, indexes the entry files, deletes those that are
    /// torn, and evicts down to the capacity.
    ///
    /// - Parameters:
    ///   - folder: the cache folder; the cache owns every `*.entry` and
    ///     `.tmp-*` file in it.
    ///   - configuration: capacity, entry size limit, policy.
    ///   - clock: the time of a use, written to the entry file for LRU order
    ///     after a restart. Default: the system clock.
    /// - Throws: ``DiskCacheError`` when the folder cannot be created or read,
    ///   or the capacity is negative.
    public convenience init(
        folder: URL, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(DiskCacheError) {
        try self.init(folder: folder, configuration: configuration, clock: clock, fileName: DiskCache.fileName(for:))
    }

    /// Opens the cache with a custom file naming, so tests can force two keys
    /// onto one file.
    init(
        folder: URL, configuration: Configuration, clock: @escaping @Sendable () -> Date,
        fileName: @escaping @Sendable (String) -> String
    ) throws(DiskCacheError) {
        guard configuration.capacity >= 0, (configuration.maxEntrySize ?? 0) >= 0 else {
            throw .invalidConfiguration("capacity and maxEntrySize must not be negative")
        }
        self.folder = folder
        self.configuration = configuration
        self.clock = clock
        self.fileName = fileName
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateFolder(folder.path, error.localizedDescription)
        }
        try rebuildIndex()
        sweep()
    }

    /// The file name of `key`'s entry: 128 bits of FNV-1a in hex, two 64-bit
    /// hashes with different bases.
    static func fileName(for key: String) -> String {
        var first = FNV1a64()
        first.update(key.utf8)
        var second = FNV1a64(basis: first.value ^ 0x9e37_79b9_7f4a_7c15)
        second.update(key.utf8)
        return hex(first.value) + hex(second.value) + entryExtension
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: Reading

    /// The entry stored under `key`, fresh or stale, or `nil` on a miss.
    ///
    /// The file is read and verified outside the lock; a damaged file is
    /// deleted and reported as a miss. A hit counts as a use for eviction.
    /// Thread-safe.
    public func entry(for key: String) -> CachedEntry? {
        let name = fileName(key)
        let generation: UInt64? = state.withLock { state in
            guard state.records[name] != nil else { return nil }
            state.records[name]!.lastUse = state.nextUse()
            return state.records[name]!.generation
        }
        guard let generation else { return nil }
        let path = self.path(name)
        do {
            let entry = try EntryFile.readEntry(at: path)
            guard entry.key == key else { return nil }  // another key's file: a miss, not a wrong answer
            EntryFile.touch(path, clock())
            return entry
        } catch {
            switch error {
            case .missing: forget(name, generation: generation, deletingFile: false)
            case .damaged: forget(name, generation: generation, deletingFile: true)
            }
            return nil
        }
    }

    /// The bytes all entry files take together. Thread-safe.
    public var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// The number of entries. Thread-safe.
    public var count: Int { state.withLock { $0.records.count } }

    // MARK: Writing

    /// Stores `response` under `key` when ``Configuration/policy`` allows it
    /// and its file fits ``Configuration/effectiveMaxEntrySize``; then evicts
    /// least recently used entries until the cache fits its capacity.
    ///
    /// A key longer than 4 KiB (`LRUStore.defaultMaxKeyBytes`, the bound of
    /// every cache) is not stored. A `200` that is not stored (the policy
    /// refuses it, e.g. `no-store`; it is too large; its key is too long;
    /// the write fails) also removes the previous entry for `key`, which it
    /// supersedes.
    ///
    /// - Returns: whether it was stored; `false` also when the file could not
    ///   be written (e.g. the disk is full). Thread-safe.
    @discardableResult
    public func store(_ response: DataResponse, for key: String, now: Date) -> Bool {
        guard key.utf8.count <= LRUStore<CachedEntry>.defaultMaxKeyBytes,
            let entry = configuration.policy.entry(for: response, key: key, now: now), write(entry, modified: now)
        else {
            if response.statusCode == 200 { remove(key) }
            return false
        }
        return true
    }

    /// Stores `response` under `key` at the clock's current time.
    @discardableResult
    public func store(_ response: DataResponse, for key: String) -> Bool {
        store(response, for: key, now: clock())
    }

    /// Applies a `304 Not Modified` to `key`'s entry (see
    /// ``CachePolicy/refreshed(_:with:now:)``) and rewrites it.
    ///
    /// - Returns: the updated entry; `nil` when there is no entry, when
    ///   `notModified` is not a 304 (nothing changes), or when the 304 cannot
    ///   apply (the entry is removed). Thread-safe.
    @discardableResult
    public func refresh(_ key: String, with notModified: DataResponse, now: Date) -> CachedEntry? {
        guard notModified.statusCode == 304, let entry = entry(for: key) else { return nil }
        guard let updated = configuration.policy.refreshed(entry, with: notModified, now: now) else {
            remove(key)
            return nil
        }
        _ = write(updated, modified: now)
        return updated
    }

    /// Removes `key`'s entry, if any. Thread-safe.
    public func remove(_ key: String) {
        let name = fileName(key)
        state.withLock { state in
            unlink(path(name))
            if let record = state.records.removeValue(forKey: name) { state.totalBytes -= record.size }
        }
    }

    /// Removes every entry (temporary files of stores in flight are left to
    /// those stores). Thread-safe.
    public func removeAll() {
        state.withLock { state in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in Set(names.filter { $0.hasSuffix(Self.entryExtension) }).union(state.records.keys) {
                unlink(path(name))
            }
            state.records.removeAll()
            state.totalBytes = 0
        }
    }

    /// Evicts least recently used entries when the files take more than
    /// ``Configuration/capacity``, down to 90% of it.
    ///
    /// - Returns: how many entries were evicted. Thread-safe.
    @discardableResult
    public func sweep() -> Int {
        state.withLock { state in evict(&state, keeping: nil) }
    }

    // MARK: Internals

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `entry` to a temporary file (outside the lock), then publishes
    /// it with `rename` and updates the index (under it).
    private func write(_ entry: CachedEntry, modified: Date) -> Bool {
        let name = fileName(entry.key)
        guard let encoded = try? EntryFile.encode(entry),
            encoded.fileSize <= configuration.effectiveMaxEntrySize
        else { return false }
        let temporary = path(Self.temporaryPrefix + UUID().uuidString)
        do {
            try EntryFile.writeFile(
                encoded, to: temporary, modified: modified, sync: configuration.synchronizesWrites)
        } catch {
            unlink(temporary)
            return false
        }
        return state.withLock { state in
            guard rename(temporary, path(name)) == 0 else {
                unlink(temporary)
                return false
            }
            let old = state.records[name]?.size ?? 0
            state.records[name] = Record(
                size: encoded.fileSize, lastUse: state.nextUse(), generation: state.nextGeneration())
            state.totalBytes += encoded.fileSize - old
            _ = evict(&state, keeping: name)
            return true
        }
    }

    /// Once the total passes the capacity, or the entries the entry limit
    /// (``Configuration/effectiveMaxEntries``), removes least recently used
    /// entries (never `keeping`) until both are back under 90% of their
    /// limits, so the sort by use happens once per many stores, not on every
    /// one. Called under the lock: only `unlink`s, no reads.
    private func evict(_ state: inout State, keeping: String?) -> Int {
        let maxEntries = configuration.effectiveMaxEntries
        guard state.totalBytes > configuration.capacity || state.records.count > maxEntries else { return 0 }
        let target = configuration.capacity - configuration.capacity / 10
        let entryTarget = maxEntries - maxEntries / 10
        let victims = state.records.filter { $0.key != keeping }.sorted { $0.value.lastUse < $1.value.lastUse }
        var evicted = 0
        for (name, record) in victims {
            if state.totalBytes <= target && state.records.count <= entryTarget { break }
            unlink(path(name))
            state.records[name] = nil
            state.totalBytes -= record.size
            evicted += 1
        }
        return evicted
    }

    /// Drops `name` from the index after a failed read, unless the file was
    /// replaced since (then the new file is someone else's good entry).
    private func forget(_ name: String, generation: UInt64, deletingFile: Bool) {
        state.withLock { state in
            guard let record = state.records[name], record.generation == generation else { return }
            if deletingFile { unlink(path(name)) }
            state.records[name] = nil
            state.totalBytes -= record.size
        }
    }

    /// Scans the folder: deletes temporary files and torn entries, and
    /// indexes the rest in the order of their modification dates.
    private func rebuildIndex() throws(DiskCacheError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .cannotListFolder(folder.path, error.localizedDescription)
        }
        var found: [(name: String, size: Int, modified: Date)] = []
        for name in names {
            let path = self.path(name)
            if name.hasPrefix(Self.temporaryPrefix) {
                unlink(path)
                continue
            }
            guard name.hasSuffix(Self.entryExtension) else { continue }
            guard let header = EntryFile.validHeader(at: path) else {
                unlink(path)
                continue
            }
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            found.append((name, header.fileSize, modified))
        }
        found.sort { ($0.modified, $0.name) < ($1.modified, $1.name) }
        state.withLock { state in
            for file in found {
                state.records[file.name] = Record(
                    size: file.size, lastUse: state.nextUse(), generation: state.nextGeneration())
                state.totalBytes += file.size
            }
        }
    }
}
