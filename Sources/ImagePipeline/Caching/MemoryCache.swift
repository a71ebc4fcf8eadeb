import CacheSupport
import Foundation
public import ImageCodecs
import ConcurrencySupport

/// Decoded images in memory: an LRU bounded by pixel bytes.
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

    /// The most pixel bytes kept.
    public let capacity: Int
    private let entries: Lock<LRUStore<DecodedImage>>

    /// Creates an empty cache.
    /// - Parameter capacity: The most pixel bytes kept; by default
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
    /// an image larger than the whole cache is not kept (and an older image
    /// under `key` stays).
    public func insert(_ image: DecodedImage, for key: String) {
        let cost = Self.cost(of: image)
        guard cost <= capacity else { return }
        entries.withLock { _ = $0.insert(image, for: key, cost: cost) }
    }

    /// Removes one entry.
    public func remove(_ key: String) {
        entries.withLock { _ = $0.remove(key) }
    }

    /// Removes everything.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Pixel bytes held and entries.
    public var usage: (bytes: Int, count: Int) {
        entries.withLock { ($0.totalCost, $0.count) }
    }
}
