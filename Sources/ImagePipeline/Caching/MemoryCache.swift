import Foundation
public import ImageCodecs
import Synchronization

/// Decoded images in memory: an LRU bounded by pixel bytes.
///
/// Thread-safe: a `Mutex` guards a doubly linked list threaded through a
/// dictionary, so lookups, inserts and evictions are O(1).
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

    private struct Node {
        var image: DecodedImage
        var cost: Int
        var older: String?
        var newer: String?
    }

    private struct State {
        var nodes: [String: Node] = [:]
        var newest: String?
        var oldest: String?
        var totalCost = 0
    }

    /// The most pixel bytes kept.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = MemoryCache.defaultCapacity) {
        precondition(capacity >= 0)
        self.capacity = capacity
    }

    /// The image for `key`, now the most recently used.
    public func image(for key: String) -> DecodedImage? {
        state.withLock { state in
            guard let node = state.nodes[key] else { return nil }
            Self.unlink(key, in: &state)
            Self.pushNewest(key, node: node, in: &state)
            return node.image
        }
    }

    /// Stores `image`; an image larger than the whole cache is not kept.
    public func insert(_ image: DecodedImage, for key: String) {
        let cost = Self.cost(of: image)
        guard cost <= capacity else { return }
        state.withLock { state in
            if let old = state.nodes[key] {
                Self.unlink(key, in: &state)
                state.totalCost -= old.cost
            }
            Self.pushNewest(key, node: Node(image: image, cost: cost), in: &state)
            state.totalCost += cost
            while state.totalCost > capacity, let oldest = state.oldest {
                let evicted = state.nodes[oldest]!
                Self.unlink(oldest, in: &state)
                state.totalCost -= evicted.cost
            }
        }
    }

    /// Removes one entry.
    public func remove(_ key: String) {
        state.withLock { state in
            guard let node = state.nodes[key] else { return }
            Self.unlink(key, in: &state)
            state.totalCost -= node.cost
        }
    }

    /// Removes everything.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Pixel bytes held and entries.
    public var usage: (bytes: Int, count: Int) {
        state.withLock { ($0.totalCost, $0.nodes.count) }
    }

    private static func unlink(_ key: String, in state: inout State) {
        guard let node = state.nodes.removeValue(forKey: key) else { return }
        if let older = node.older { state.nodes[older]?.newer = node.newer } else { state.oldest = node.newer }
        if let newer = node.newer { state.nodes[newer]?.older = node.older } else { state.newest = node.older }
    }

    private static func pushNewest(_ key: String, node: Node, in state: inout State) {
        var node = node
        node.older = state.newest
        node.newer = nil
        if let newest = state.newest { state.nodes[newest]?.newer = key }
        state.newest = key
        if state.oldest == nil { state.oldest = key }
        state.nodes[key] = node
    }
}
