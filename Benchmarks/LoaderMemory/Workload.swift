import WebPBridge

/// What the memory check repeats: one request, many times, from several
/// tasks at once.
protocol Workload: Sendable {
    /// One line saying what each request goes through.
    var summary: String { get }
    /// Makes request number `index`.
    /// - Returns: Why it failed, or `nil` when it succeeded.
    func request(_ index: Int) async -> String?
    /// How full the bounded caches are; `nil` when the workload has none.
    func cacheUsage() -> CacheUsage?
    /// Stops the servers the workload started.
    func shutdown() async
}

/// How full each bounded cache is, for the sample lines and the check that
/// warm-up filled them.
struct CacheUsage: CustomStringConvertible {
    struct Entry {
        let name: String
        let bytes: Int
        let capacity: Int
        let count: Int
    }

    /// A cache counts as full from this fraction of its capacity: the disk
    /// cache evicts down to 90%, and entries do not fill a cap exactly.
    static let fullFraction = 0.8

    let entries: [Entry]

    var isFull: Bool { entries.allSatisfy { Double($0.bytes) >= Double($0.capacity) * Self.fullFraction } }

    var description: String {
        entries.map { entry in
            "\(entry.name) \(ResidentMemory.format(entry.bytes))/\(ResidentMemory.format(entry.capacity))"
                + " (\(entry.count))"
        }.joined(separator: ", ")
    }
}
