/// Values by key, bounded by a total cost, the least recently used let go
/// first: the bookkeeping shared by the pipeline's `MemoryCache` and
/// `MemoryDataCache` and the origin's `VariantCache`, each of which keeps
/// its own lock, rules and counters around one of these.
///
/// Each entry has a cost (bytes, pixels — whatever the owner bounds); after
/// every ``insert(_:for:cost:)`` the total is at most ``capacity``. Reading a
/// value with ``value(for:)`` makes it the most recently used.
///
/// A doubly linked list threaded through an array of slots, found by a
/// dictionary from key to slot, so lookups, inserts, removals and each
/// eviction are O(1) (amortized, like the dictionary); freed slots are
/// reused, so the storage grows only to the most entries held at once.
///
/// Not thread-safe: a value type meant to live inside its owner's lock
/// (a `Lock` around the owner's private state).
public struct LRUStore<Value> {
    /// An entry the store let go of to stay within its capacity.
    public struct Entry {
        /// The entry's key.
        public let key: String
        /// The value it held.
        public let value: Value
        /// What it counted against the capacity.
        public let cost: Int
    }

    fileprivate struct Node {
        var key: String
        /// `nil` only while the slot is free, so a freed value is released.
        var value: Value?
        var cost: Int
        var older: Int?
        var newer: Int?
    }

    /// The most total cost kept.
    public let capacity: Int

    private var slotByKey: [String: Int] = [:]
    private var nodes: [Node] = []
    private var freeSlots: [Int] = []
    private var oldest: Int?
    private var newest: Int?

    /// The sum of the costs of the entries held; never above ``capacity``.
    public private(set) var totalCost = 0

    /// Creates an empty store.
    /// - Parameter capacity: The most total cost kept; not negative.
    public init(capacity: Int) {
        precondition(capacity >= 0, "an LRUStore's capacity cannot be negative")
        self.capacity = capacity
    }

    /// Entries held.
    public var count: Int { slotByKey.count }

    /// Whether nothing is held.
    public var isEmpty: Bool { slotByKey.isEmpty }

    /// The keys held, least recently used first. O(n): for tests and
    /// diagnostics, not for a request path.
    public var keys: [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        var slot = oldest
        while let current = slot {
            keys.append(nodes[current].key)
            slot = nodes[current].newer
        }
        return keys
    }

    /// The value under `key`, which becomes the most recently used; `nil`
    /// when there is none.
    public mutating func value(for key: String) -> Value? {
        guard let slot = slotByKey[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot].value
    }

    /// Stores `value` under `key` as the most recently used entry, replacing
    /// any value already there, then evicts least recently used entries
    /// until the total cost fits ``capacity``.
    ///
    /// A value costing more than the whole capacity is not kept, and the
    /// value it would have replaced is removed all the same: the store never
    /// answers with a value an insert superseded. Owners that would rather
    /// keep the old value check the cost first.
    ///
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: Its key.
    ///   - cost: What it counts against ``capacity``; not negative.
    /// - Returns: The entries evicted to make room, least recently used
    ///   first; neither the replaced value nor a refused one is among them.
    @discardableResult
    public mutating func insert(_ value: Value, for key: String, cost: Int) -> [Entry] {
        precondition(cost >= 0, "an LRUStore entry's cost cannot be negative")
        guard cost <= capacity else {
            remove(key)
            return []
        }
        if let slot = slotByKey[key] {
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            moveToNewest(slot)
        } else {
            let slot = allocate(Node(key: key, value: value, cost: cost, older: nil, newer: nil))
            slotByKey[key] = slot
            totalCost += cost
            linkAsNewest(slot)
        }
        var evicted: [Entry] = []
        // The new entry is the newest and fits on its own, so the loop stops
        // before reaching it.
        while totalCost > capacity, let slot = oldest {
            let node = nodes[slot]
            evicted.append(Entry(key: node.key, value: node.value!, cost: node.cost))
            removeSlot(slot)
        }
        return evicted
    }

    /// Removes the value under `key`.
    /// - Returns: The value removed; `nil` when there was none.
    @discardableResult
    public mutating func remove(_ key: String) -> Value? {
        guard let slot = slotByKey[key] else { return nil }
        let value = nodes[slot].value
        removeSlot(slot)
        return value
    }

    /// Removes every entry and gives the storage back.
    public mutating func removeAll() {
        self = LRUStore(capacity: capacity)
    }

    // MARK: - The list

    private mutating func allocate(_ node: Node) -> Int {
        if let slot = freeSlots.popLast() {
            nodes[slot] = node
            return slot
        }
        nodes.append(node)
        return nodes.count - 1
    }

    private mutating func removeSlot(_ slot: Int) {
        unlink(slot)
        slotByKey[nodes[slot].key] = nil
        totalCost -= nodes[slot].cost
        nodes[slot] = Node(key: "", value: nil, cost: 0, older: nil, newer: nil)
        freeSlots.append(slot)
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let older = nodes[slot].older
        let newer = nodes[slot].newer
        if let older { nodes[older].newer = newer } else { oldest = newer }
        if let newer { nodes[newer].older = older } else { newest = older }
        nodes[slot].older = nil
        nodes[slot].newer = nil
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}

extension LRUStore: Sendable where Value: Sendable {}
extension LRUStore.Entry: Sendable where Value: Sendable {}
extension LRUStore.Node: Sendable where Value: Sendable {}
