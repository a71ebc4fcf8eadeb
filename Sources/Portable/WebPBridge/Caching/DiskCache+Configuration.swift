extension DiskCache {
    /// How big a ``DiskCache`` may grow and what it stores. A `Sendable`
    /// value of documented defaults.
    public struct Configuration: Sendable, Equatable {
        /// 150 MiB, the default ``capacity``.
        public static let defaultCapacity = 150 * 1024 * 1024

        /// The most bytes the entry files may take together (headers and
        /// metadata included); past it, the least recently used entries are
        /// evicted down to 90% of it. Default 150 MiB.
        public var capacity: Int
        /// The largest single entry file stored, or `nil` (default) for
        /// ``capacity``: a bigger response is not stored at all, rather than
        /// evicting everything else.
        public var maxEntrySize: Int?
        /// The most entries kept, or `nil` (default) for one per 4 KiB of
        /// ``capacity``, at least 1,024. Each entry costs a record of about
        /// 128 bytes in memory whatever its file's size, so tiny entries
        /// must not be counted by bytes alone: the default keeps the index
        /// of a 150 MiB cache under 5 MiB.
        public var maxEntries: Int?
        /// Whether to store a response and for how long. Default: 7 days when
        /// a response says nothing.
        public var policy: CachePolicy
        /// Whether each entry is flushed to stable storage (`fsync`) before it
        /// is published. Default `false`: a crash of the process (even
        /// `kill -9`) never loses a published entry either way, and a power
        /// loss that tears one is caught by its checksum; `true` costs a
        /// disk flush per store.
        public var synchronizesWrites: Bool

        /// The entry size limit in force: ``maxEntrySize``, at most ``capacity``.
        public var effectiveMaxEntrySize: Int { min(maxEntrySize ?? capacity, capacity) }

        /// The entry count limit in force: ``maxEntries``, or one per 4 KiB
        /// of ``capacity``, at least 1,024.
        public var effectiveMaxEntries: Int { maxEntries ?? max(1_024, capacity / 4_096) }

        /// Creates a configuration.
        public init(
            capacity: Int = Configuration.defaultCapacity, maxEntrySize: Int? = nil, maxEntries: Int? = nil,
            policy: CachePolicy = CachePolicy(), synchronizesWrites: Bool = false
        ) {
            self.capacity = capacity
            self.maxEntrySize = maxEntrySize
            self.maxEntries = maxEntries
            self.policy = policy
            self.synchronizesWrites = synchronizesWrites
        }
    }
}
