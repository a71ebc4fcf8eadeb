/// The obviously correct LRU the store is checked against: an array in use
/// order, searched from end to end on every call. Like a store with no
/// per-entry overhead, it charges each entry its cost plus its key's bytes.
struct ReferenceLRU {
    struct Entry: Equatable {
        var key: String
        var value: Int
        var cost: Int
    }

    let capacity: Int
    /// Least recently used first.
    private(set) var entries: [Entry] = []

    init(capacity: Int) { self.capacity = capacity }

    var totalCost: Int { entries.reduce(0) { $0 + $1.cost + $1.key.utf8.count } }

    var keys: [String] { entries.map(\.key) }

    mutating func value(for key: String) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.value
    }

    /// Returns the evicted entries, least recently used first.
    mutating func insert(_ value: Int, for key: String, cost: Int) -> [Entry] {
        _ = remove(key)
        guard cost + key.utf8.count <= capacity else { return [] }
        entries.append(Entry(key: key, value: value, cost: cost))
        var evicted: [Entry] = []
        while totalCost > capacity { evicted.append(entries.removeFirst()) }
        return evicted
    }

    mutating func remove(_ key: String) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }
}
