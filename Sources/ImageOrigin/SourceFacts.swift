import ImageCodecs
import Synchronization

/// What the origin derives from a source file for every request — its
/// format (sniffed from its first bytes), its tag (for ETags and variant
/// keys) and its `Last-Modified` text — worked out once and reused while
/// the file keeps its identity (device, inode, size, modification time), so
/// a popular file is not opened and read, nor its dates formatted, per
/// request. Bounded in entries; forgotten all at once when full.
///
/// Thread-safe: one `Mutex` guards the entries.
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

    private let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// Files whose facts are remembered now.
    var count: Int { entries.withLock { $0.count } }

    /// The facts about `file`, worked out by `derive` (outside the lock)
    /// when this version of the file is not known.
    func facts(about file: FileResolver.File, derive: (FileResolver.File) -> Facts) -> Facts {
        let version = Version(file)
        if let known = entries.withLock({ $0[file.path] }), known.version == version { return known.facts }
        let facts = derive(file)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[file.path] = Entry(version: version, facts: facts)
        }
        return facts
    }
}
