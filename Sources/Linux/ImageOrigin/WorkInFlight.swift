import WebPBridge

/// The origin's share of its memory budget for variants being made
/// (``ImageOrigin/MemoryBudget/workInFlightBytes``): each transformation
/// reserves its estimated peak (``ImageTransformer/Cost/peakBytes``)
/// before it decodes anything and gives it back when it ends, so the
/// transformations running at once never hold more than the share.
///
/// Thread-safe: one `Lock` guards the bytes reserved.
final class WorkInFlight: Sendable {
    /// The share, in bytes.
    let capacityBytes: Int
    private let reserved = Lock(0)

    init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// Reserves `bytes`, or returns `false` when they do not fit beside
    /// what is reserved now.
    func reserve(_ bytes: Int) -> Bool {
        reserved.withLock { reserved in
            guard bytes <= capacityBytes - reserved else { return false }
            reserved += bytes
            return true
        }
    }

    /// Gives back bytes reserved by ``reserve(_:)``.
    func release(_ bytes: Int) {
        reserved.withLock { $0 -= bytes }
    }

    /// Bytes reserved now.
    var reservedBytes: Int { reserved.withLock { $0 } }
}
