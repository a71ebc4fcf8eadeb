/// HTTP fields as they were sent: ordered, multi-valued, with
/// case-insensitive names, and values kept byte for byte.
///
/// The one field collection every layer uses — a server's request head, a
/// loader's response, the pipeline's cached answer, the bridge core's
/// answer and each adapter's message — so that no layer merges, reorders or
/// re-encodes what another one read.
///
/// - Names keep the spelling they were added with; lookups ignore ASCII
///   case (RFC 9110 §5.1).
/// - A name can appear several times, in order (`Vary`, `Set-Cookie`).
///   Repeated fields are never joined in storage: ``combinedValue(for:)``
///   joins them for reading, and refuses `Set-Cookie`, which may not be
///   combined (RFC 9110 §5.3, RFC 6265 §3).
/// - A value that is not UTF-8 (obs-text such as Latin-1 `caf\xE9`) keeps
///   its bytes (``Field/valueBytes``); ``Field/value`` shows it with U+FFFD
///   for reading only.
/// - ``encodedByteCount`` is what the fields cost on the wire, so that
///   whoever reads fields from a peer holds them to ``Limits``.
public struct HTTPFieldList: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One field line.
    public struct Field: Sendable, Equatable {
        /// The name as sent or added, e.g. `Content-Type`.
        public var name: String
        /// The value as text, without surrounding whitespace. For a value
        /// whose bytes are not UTF-8 this is a reading (U+FFFD in place of
        /// each bad sequence); ``valueBytes`` holds what was sent. Setting
        /// it replaces the value, bytes included.
        public var value: String {
            didSet { nonUTF8Bytes = nil }
        }
        /// The value's bytes when they are not valid UTF-8, else `nil`.
        private var nonUTF8Bytes: [UInt8]?

        /// Creates a field from text.
        /// - Parameters:
        ///   - name: The field name.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Creates a field from the value's bytes as sent, keeping them
        /// exactly even where they are not UTF-8.
        /// - Parameters:
        ///   - name: The field name.
        ///   - valueBytes: The field value's bytes.
        public init(name: String, valueBytes: some Collection<UInt8>) {
            self.name = name
            // Decoding replaces each bad sequence with U+FFFD, so the bytes
            // differ exactly when they were not UTF-8 (`String(validating:)`
            // is above the Apple floor).
            value = String(decoding: valueBytes, as: UTF8.self)
            if !value.utf8.elementsEqual(valueBytes) { nonUTF8Bytes = Array(valueBytes) }
        }

        /// The value's bytes as sent: what a relay writes.
        public var valueBytes: [UInt8] { nonUTF8Bytes ?? Array(value.utf8) }

        /// Whether the value's bytes are not UTF-8 (``value`` is then a
        /// reading, not the value).
        public var isUTF8: Bool { nonUTF8Bytes == nil }

        /// What the field line `name: value\r\n` costs on the wire.
        public var encodedByteCount: Int {
            name.utf8.count + (nonUTF8Bytes?.count ?? value.utf8.count) + 4
        }

        /// Equal when names match without case and values byte for byte.
        public static func == (lhs: Field, rhs: Field) -> Bool {
            HTTPFieldList.matches(lhs.name, rhs.name) && lhs.value == rhs.value
                && lhs.nonUTF8Bytes == rhs.nonUTF8Bytes
        }
    }

    /// A bound on the fields a peer may send: how many and how many bytes
    /// (``encodedByteCount``). Whoever reads fields from the network holds
    /// them to one, so keys and headers count against memory as bodies do.
    public struct Limits: Sendable, Equatable {
        /// The most field lines. Default 100.
        public var maxCount: Int
        /// The most bytes over all field lines, names, values and line ends
        /// counted. Default 16 KiB: above nginx's `proxy_buffer_size` (4 or
        /// 8 KiB, where nginx answers 502), and small enough that a relayed
        /// head plus the relay's own fields fits the proxy's per-connection
        /// memory.
        public var maxBytes: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maxCount: The most field lines.
        ///   - maxBytes: The most bytes over all field lines.
        public init(maxCount: Int = 100, maxBytes: Int = 16 << 10) {
            self.maxCount = maxCount
            self.maxBytes = maxBytes
        }

        /// Whether a section of `count` fields and `bytes` bytes fits.
        public func admits(count: Int, bytes: Int) -> Bool { count <= maxCount && bytes <= maxBytes }
    }

    private var fields: [Field]

    /// Creates an empty field list.
    public init() { fields = [] }

    /// Room for `count` fields, so that adding them one by one allocates once.
    /// - Parameter count: The fields about to be added.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Creates a field list from fields, keeping their order and duplicates.
    /// - Parameter fields: `(name, value)` pairs.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a field list from fields, keeping their order and duplicates.
    /// - Parameter fields: The fields.
    public init(fields: [Field]) { self.fields = fields }

    /// Creates a field list from a dictionary literal, in literal order.
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

    /// Every field of that name, in order, bytes included.
    /// - Parameter name: A field name, in any case.
    public func fields(named name: String) -> [Field] {
        fields.filter { Self.matches($0.name, name) }
    }

    /// The values of a list-based field joined with `, ` as RFC 9110 §5.3
    /// allows a recipient to (`Cache-Control`, `Vary`, `Accept`), or `nil`
    /// when absent. `nil` for `Set-Cookie` too, which must never be
    /// combined: read ``values(for:)``.
    /// - Parameter name: A field name, in any case.
    public func combinedValue(for name: String) -> String? {
        guard !Self.matches(name, "Set-Cookie") else { return nil }
        var combined: String?
        for field in fields where Self.matches(field.name, name) {
            combined = combined.map { "\($0), \(field.value)" } ?? field.value
        }
        return combined
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

    /// Appends a field as it is, bytes included.
    /// - Parameter field: The field.
    public mutating func add(_ field: Field) { fields.append(field) }

    /// Appends every field of `other`, in order.
    /// - Parameter other: The fields to append.
    public mutating func append(contentsOf other: HTTPFieldList) { fields += other.fields }

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

    /// Removes every field for which `shouldRemove` is true.
    /// - Parameter shouldRemove: Decides for one field.
    public mutating func removeAll(where shouldRemove: (Field) throws -> Bool) rethrows {
        try fields.removeAll(where: shouldRemove)
    }

    /// The number of fields, counting repeated names.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// What the fields cost on the wire: ``Field/encodedByteCount`` summed.
    public var encodedByteCount: Int { fields.reduce(0) { $0 + $1.encodedByteCount } }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// `Name: value` lines, one per field.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// The fields as Foundation's `HTTPURLResponse(url:statusCode:httpVersion:headerFields:)`
    /// and `URLRequest.allHTTPHeaderFields` take them: one value per name, so
    /// repeated fields are joined with `, ` — as Foundation itself joins the
    /// ones it receives, `Set-Cookie` included. Only for handing fields to
    /// those APIs: everything else reads the list.
    public var foundationHeaderFields: [String: String] {
        var joined: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            let name = spelling[key, default: field.name]
            spelling[key] = name
            joined[name] = joined[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return joined
    }

    /// Creates a field list from Foundation's one-value-per-name dictionary
    /// (`URLRequest.allHTTPHeaderFields`, `HTTPURLResponse.allHeaderFields`),
    /// in name order: a dictionary keeps none.
    /// - Parameter foundationHeaderFields: The dictionary.
    public init(foundationHeaderFields: [String: String]) {
        self.init(foundationHeaderFields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Whether two field names are the same, ignoring ASCII case.
    /// - Parameters:
    ///   - lhs: A field name.
    ///   - rhs: Another.
    public static func namesMatch(_ lhs: String, _ rhs: String) -> Bool { matches(lhs, rhs) }

    fileprivate static func matches(_ lhs: String, _ rhs: String) -> Bool {
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
