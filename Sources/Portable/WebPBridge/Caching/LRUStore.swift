/// Values by key, bounded by a total cost, the least recently used let go
/// first: the bookkeeping shared by the pipeline's `MemoryCache` and
/// `MemoryDataCache` and the origin's `VariantCache`, each of which keeps
/// its own lock, rules and counters around one of these.
///
/// Bounded in bytes, and every entry is charged in full: the owner's cost
/// (the bytes its value holds — body, headers, metadata), plus the key's
/// UTF-8 bytes, plus ``entryOverhead`` for the store's own bookkeeping
/// (its slot, its dictionary entry, the key's heap object). So a flood of
/// long keys with small values evicts as surely as large values do, and
/// every cache built on a store is bounded by construction. After every
/// ``insert(_:for:cost:)`` ``totalCost`` is at most ``capacity``. A key
/// longer than ``maxKeyBytes`` is not kept at all. Reading a value with
/// ``value(for:)`` makes it the most recently used.
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
        /// The owner's cost given when it was inserted (the store charged
        /// ``LRUStore/charge(forKey:cost:)`` for it).
        public let cost: Int
    }

    @usableFromInline
    struct Node {
        @usableFromInline var key: String
        /// `nil` only while the slot is free, so a freed value is released.
        @usableFromInline var value: Value?
        /// The owner's cost, as given.
        @usableFromInline var cost: Int
        /// What the entry counts against the capacity: cost, key and overhead.
        @usableFromInline var charge: Int
        @usableFromInline var older: Int?
        @usableFromInline var newer: Int?

        @usableFromInline
        init(key: String, value: Value?, cost: Int, charge: Int, older: Int?, newer: Int?) {
            (self.key, self.value, self.cost, self.charge, self.older, self.newer) =
                (key, value, cost, charge, older, newer)
        }
    }

    /// The most bytes charged in total.
    public let capacity: Int
    /// Keys longer than this many UTF-8 bytes are not kept.
    public let maxKeyBytes: Int
    /// What each entry is charged besides its cost and key: ``entryOverhead``.
    private let overhead: Int

    /// 4 KiB: the default ``maxKeyBytes``. Longer than any URL a browser
    /// sends for an image, far shorter than what a client can put in a
    /// target or header to flood a cache.
    public static var defaultMaxKeyBytes: Int { 4096 }

    /// The bytes charged for each entry on top of its cost and its key:
    /// the store's slot and dictionary entry (twice their size, for the
    /// slack of growing arrays and hash tables) and 64 bytes for the key's
    /// heap object header and allocator rounding.
    public static var entryOverhead: Int {
        2 * (MemoryLayout<Node>.stride + MemoryLayout<String>.stride + 2 * MemoryLayout<Int>.stride) + 64
    }

    /// What an entry under `key` costing `cost` counts against the capacity.
    public static func charge(forKey key: String, cost: Int) -> Int {
        cost + key.utf8.count + entryOverhead
    }

    // Visible to inlined code (``value(for:)`` and the list), so a caller in
    // another module gets them specialized for its `Value`: generic, a cache
    // hit looked up type metadata at run time (a fifth of the origin's
    // ready-answer lookup, under callgrind).
    @usableFromInline var slotByKey: [String: Int] = [:]
    @usableFromInline var nodes: [Node] = []
    private var freeSlots: [Int] = []
    @usableFromInline var oldest: Int?
    @usableFromInline var newest: Int?

    /// The bytes charged for the entries held — costs, keys and
    /// overheads; never above ``capacity``.
    public private(set) var totalCost = 0

    /// Creates an empty store.
    /// - Parameters:
    ///   - capacity: The most bytes charged in total; not negative.
    ///   - maxKeyBytes: Longer keys are not kept; by default
    ///     ``defaultMaxKeyBytes`` (4 KiB).
    public init(capacity: Int, maxKeyBytes: Int = LRUStore.defaultMaxKeyBytes) {
        self.init(capacity: capacity, maxKeyBytes: maxKeyBytes, overhead: Self.entryOverhead)
    }

    /// A store charging `overhead` per entry instead of ``entryOverhead``:
    /// for tests of the eviction order in round numbers.
    init(capacity: Int, maxKeyBytes: Int = LRUStore.defaultMaxKeyBytes, overhead: Int) {
        precondition(capacity >= 0, "an LRUStore's capacity cannot be negative")
        precondition(maxKeyBytes >= 0, "an LRUStore's key bound cannot be negative")
        precondition(overhead >= 0, "an LRUStore's entry overhead cannot be negative")
        self.capacity = capacity
        self.maxKeyBytes = maxKeyBytes
        self.overhead = overhead
    }

    /// Whether an entry under `key` costing `cost` would be kept: its key
    /// is within ``maxKeyBytes`` and its charge within ``capacity``. Owners
    /// that keep an old value rather than lose it to a refused insert ask
    /// this first.
    public func admits(key: String, cost: Int) -> Bool {
        key.utf8.count <= maxKeyBytes && cost + key.utf8.count + overhead <= capacity
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
    @inlinable
    public mutating func value(for key: String) -> Value? {
        guard let slot = slotByKey[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot].value
    }

    /// Stores `value` under `key` as the most recently used entry, replacing
    /// any value already there, then evicts least recently used entries
    /// until the total cost fits ``capacity``.
    ///
    /// A key longer than ``maxKeyBytes``, or an entry whose charge (see
    /// ``charge(forKey:cost:)``) exceeds the whole capacity, is not kept,
    /// and the value it would have replaced is removed all the same: the
    /// store never answers with a value an insert superseded. Owners that
    /// would rather keep the old value ask ``admits(key:cost:)`` first.
    ///
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: Its key.
    ///   - cost: The bytes the value holds (body, headers, metadata); not
    ///     negative. The store adds the key and ``entryOverhead``.
    /// - Returns: The entries evicted to make room, least recently used
    ///   first; neither the replaced value nor a refused one is among them.
    @discardableResult
    public mutating func insert(_ value: Value, for key: String, cost: Int) -> [Entry] {
        precondition(cost >= 0, "an LRUStore entry's cost cannot be negative")
        guard admits(key: key, cost: cost) else {
            remove(key)
            return []
        }
        let charge = cost + key.utf8.count + overhead
        if let slot = slotByKey[key] {
            totalCost += charge - nodes[slot].charge
            nodes[slot].value = value
            nodes[slot].cost = cost
            nodes[slot].charge = charge
            moveToNewest(slot)
        } else {
            let slot = allocate(Node(key: key, value: value, cost: cost, charge: charge, older: nil, newer: nil))
            slotByKey[key] = slot
            totalCost += charge
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
        self = LRUStore(capacity: capacity, maxKeyBytes: maxKeyBytes, overhead: overhead)
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
        totalCost -= nodes[slot].charge
        nodes[slot] = Node(key: "", value: nil, cost: 0, charge: 0, older: nil, newer: nil)
        freeSlots.append(slot)
    }

    @inlinable
    mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let older = nodes[slot].older
        let newer = nodes[slot].newer
        if let older { nodes[older].newer = newer } else { oldest = newer }
        if let newer { nodes[newer].older = older } else { newest = older }
        nodes[slot].older = nil
        nodes[slot].newer = nil
    }

    @inlinable
    mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}

extension LRUStore: Sendable where Value: Sendable {}
extension LRUStore.Entry: Sendable where Value: Sendable {}
extension LRUStore.Node: Sendable where Value: Sendable {}
