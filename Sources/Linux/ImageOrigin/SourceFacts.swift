import WebPBridge

/// What the origin derives from a source file for every request — its
/// format (sniffed from its first bytes), its tag (for ETags and variant
/// keys) and its `Last-Modified` text — worked out once and reused while
/// the file keeps its identity (device, inode, size, modification time), so
/// a popular file is not opened and read, nor its dates formatted, per
/// request. Bounded in bytes, paths included (an `LRUStore`: the least
/// recently used file goes first); a path longer than
/// `LRUStore.defaultMaxKeyBytes` (4 KiB) is worked out for every request.
///
/// Thread-safe: one `Lock` guards the entries.
final class SourceFacts: Sendable {
    /// The facts about one version of one file.
    struct Facts: Sendable {
        /// `nil`: not an image.
        var format: ImageFormat?
        var tag: String
        var lastModified: String
    }

    private struct Entry {
        var version: Version
        var facts: Facts
    }

    /// A version of a file: any change to its content changes one of these.
    private struct Version: Equatable {
        var identity: FileResolver.Identity
        var size: Int
        var modifiedNanoseconds: Int64

        init(_ file: FileResolver.File) {
            identity = FileResolver.Identity(device: file.device, inode: file.inode)
            size = file.size
            modifiedNanoseconds = file.modifiedNanoseconds
        }
    }

    private let entries: Lock<LRUStore<Entry>>

    /// - Parameter capacityBytes: The most bytes held; see
    ///   ``ImageOrigin/MemoryBudget/sourceFactsBytes``.
    init(capacityBytes: Int) {
        entries = Lock(LRUStore(capacity: max(0, capacityBytes)))
    }

    /// Files whose facts are remembered now.
    var count: Int { entries.withLock { $0.count } }

    /// Bytes accounted now, paths included.
    var totalBytes: Int { entries.withLock { $0.totalCost } }

    /// The facts about `file`, worked out by `derive` (outside the lock)
    /// when this version of the file is not known.
    func facts(about file: FileResolver.File, derive: (FileResolver.File) -> Facts) -> Facts {
        let version = Version(file)
        if let known = entries.withLock({ $0.value(for: file.path) }), known.version == version { return known.facts }
        let facts = derive(file)
        // The tag and date are heap strings of their own; 32 bytes each for their headers.
        let cost = MemoryLayout<Entry>.stride + facts.tag.utf8.count + facts.lastModified.utf8.count + 64
        entries.withLock { _ = $0.insert(Entry(version: version, facts: facts), for: file.path, cost: cost) }
        return facts
    }
}
