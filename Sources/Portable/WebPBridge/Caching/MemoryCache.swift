import Foundation

/// Decoded images in memory: an LRU bounded in bytes — pixel bytes plus
/// each key and the store's bookkeeping (see `LRUStore`); a key longer than
/// 4 KiB is not cached.
///
/// Thread-safe: a `Lock` guards an `LRUStore`, so lookups, inserts and
/// evictions are O(1).
public final class MemoryCache: Sendable {
    /// Cost in bytes of a decoded image (RGBA: 4 bytes a pixel, every frame).
    public static func cost(of image: DecodedImage) -> Int {
        switch image {
        case .still(let still): still.pixels.count
        case .animated(let animation): animation.frames.reduce(0) { $0 + $1.image.pixels.count }
        }
    }

    /// The default bound: 1/8 of physical memory, at most 512 MB.
    public static var defaultCapacity: Int {
        Int(min(ProcessInfo.processInfo.physicalMemory / 8, 512 << 20))
    }

    /// The most bytes kept, keys included.
    public let capacity: Int
    private let entries: Lock<LRUStore<DecodedImage>>

    /// Creates an empty cache.
    /// - Parameter capacity: The most bytes kept, keys included; by default
    ///   ``defaultCapacity``.
    public init(capacity: Int = MemoryCache.defaultCapacity) {
        precondition(capacity >= 0)
        self.capacity = capacity
        entries = Lock(LRUStore(capacity: capacity))
    }

    /// The image for `key`, now the most recently used.
    public func image(for key: String) -> DecodedImage? {
        entries.withLock { $0.value(for: key) }
    }

    /// Stores `image`, evicting the least recently used past ``capacity``;
    /// an image larger than the whole cache, or under a key longer than
    /// 4 KiB, is not kept (and an older image under `key` stays).
    public func insert(_ image: DecodedImage, for key: String) {
        let cost = Self.cost(of: image) + MemoryLayout<DecodedImage>.stride
        entries.withLock { entries in
            guard entries.admits(key: key, cost: cost) else { return }
            entries.insert(image, for: key, cost: cost)
        }
    }

    /// Removes one entry.
    public func remove(_ key: String) {
        entries.withLock { _ = $0.remove(key) }
    }

    /// Removes `key`'s entry and those of the same image at other sizes
    /// (``RequestPlan/imageCacheKey``: `key`, a space, a size). Walks every
    /// key: for an explicit eviction, not for a hot path.
    public func removeAllSizes(of key: String) {
        let prefix = key + " "
        entries.withLock { entries in
            for stored in entries.keys where stored == key || stored.hasPrefix(prefix) {
                entries.remove(stored)
            }
        }
    }

    /// Removes everything.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Bytes accounted (pixels, keys and bookkeeping) and entries.
    public var usage: (bytes: Int, count: Int) {
        entries.withLock { ($0.totalCost, $0.count) }
    }
}
