/// HTTP header fields: ordered, multi-valued, with case-insensitive names.
///
/// Names keep the spelling they were added with; lookups ignore ASCII case
/// (RFC 9110 §5.1). A name can appear several times (`Vary`, `Set-Cookie`).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The name as added, e.g. `Content-Type`.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The field name.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Room for `count` fields, so that adding them one by one allocates once.
    /// - Parameter count: The fields about to be added.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Creates a header list from fields, keeping their order and duplicates.
    /// - Parameter fields: `(name, value)` pairs.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a header list from a dictionary literal, in literal order.
    /// - Parameter elements: `name: value` pairs.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of a field, or `nil`. Setting replaces every field
    /// of that name with one (or removes them all when `nil`).
    /// - Parameter name: A field name, in any case.
    public subscript(name: String) -> String? {
        get { fields.first { Self.matches($0.name, name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value of a field, in order.
    /// - Parameter name: A field name, in any case.
    /// - Returns: The values; empty when the field is absent.
    public func values(for name: String) -> [String] {
        fields.filter { Self.matches($0.name, name) }.map(\.value)
    }

    /// Whether a field is present.
    /// - Parameter name: A field name, in any case.
    public func contains(_ name: String) -> Bool { fields.contains { Self.matches($0.name, name) } }

    /// Appends a field, keeping any existing fields of the same name.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of that name with one field (in the place of
    /// the first), or appends it when absent.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let first = fields.firstIndex(where: { Self.matches($0.name, name) }) else {
            return add(name: name, value: value)
        }
        fields[first] = Field(name: name, value: value)
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if Self.matches(fields[index].name, name) { fields.remove(at: index) } else { index += 1 }
        }
    }

    /// Removes every field of that name.
    /// - Parameter name: A field name, in any case.
    public mutating func remove(name: String) {
        fields.removeAll { Self.matches($0.name, name) }
    }

    /// The number of fields, counting repeated names.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// `Name: value` lines, one per field.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// Two header lists are equal when they hold the same fields in the same
    /// order, comparing names without case.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { matches($0.name, $1.name) && $0.value == $1.value }
    }

    /// Whether two field names are the same, ignoring ASCII case.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool { matches(lhs, rhs) }

    private static func matches(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // A loop over the bytes both strings lend (native and small strings
        // do): zipping their UTF8Views cost as much as the rest of a cache
        // hit's header lookups together (callgrind, bench/callgrind_http.py).
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where asciiLowercased(left[index]) != asciiLowercased(right[index]) {
                    return false
                }
                return true
            }
        }
        if let compared, let compared { return compared }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    @inline(__always)
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
