/// Helpers over a raw (still percent-encoded) query string, split on `&`
/// without decoding, so that editing one item leaves the others byte-identical.
enum RawQuery {
    /// The `&`-separated items, empty ones included.
    static func items(_ query: Substring) -> [Substring] {
        query.splitBytes(UInt8(ascii: "&"))
    }

    /// Calls `body` with each `&`-separated item, without building an array;
    /// stops when `body` returns `true`. Returns whether it stopped.
    @discardableResult
    static func forEachItem(in query: Substring, _ body: (Substring) -> Bool) -> Bool {
        let utf8 = query.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "&") {
                if body(query[start..<index]) { return true }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        return body(query[start..<utf8.endIndex])
    }

    /// The part of `item` before its first `=` (the whole item without one).
    static func name(of item: Substring) -> Substring {
        guard let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) else { return item }
        return item[item.startIndex..<equals]
    }

    /// The part of `item` after its first `=`, or `nil` without one.
    static func value(of item: Substring) -> Substring? {
        guard let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return item[item.utf8.index(after: equals)...]
    }

    /// Whether any item is named one of `names` (ASCII case-insensitive).
    /// `names` must be lower-case.
    static func containsItem(in query: Substring?, namedAnyOf names: Set<String>) -> Bool {
        guard let query, !query.isEmpty else { return false }
        return forEachItem(in: query) { item in names.contains(lowercasedASCII(name(of: item))) }
    }

    /// Whether the query (or `nil`) contains `needle` ignoring ASCII case;
    /// `needle` must be lower-case ASCII.
    static func containsIgnoringCase(_ haystack: Substring, _ needle: String) -> Bool {
        let hay = haystack.utf8
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, hay.count >= pattern.count else { return false }
        var index = hay.startIndex
        let last = hay.index(hay.endIndex, offsetBy: -pattern.count)
        while index <= last {
            if lowercase(hay[index]) == first {
                var matched = true
                var probe = hay.index(after: index)
                for expected in pattern.dropFirst() {
                    if lowercase(hay[probe]) != expected {
                        matched = false
                        break
                    }
                    probe = hay.index(after: probe)
                }
                if matched { return true }
            }
            index = hay.index(after: index)
        }
        return false
    }

    /// `text` with ASCII letters lower-cased (other bytes untouched).
    static func lowercasedASCII(_ text: some StringProtocol) -> String {
        if !text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            return String(text)
        }
        return String(decoding: text.utf8.map(lowercase), as: UTF8.self)
    }

    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
