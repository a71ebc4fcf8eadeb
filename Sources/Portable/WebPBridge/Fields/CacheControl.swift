/// The directives of `Cache-Control` (RFC 9111 §5.2) that the pipeline's
/// cache and the bridges act on, parsed once from one or several field
/// values.
///
/// Unknown directives are ignored. A directive's argument may be a token or
/// a quoted string; a comma inside a quoted string does not end the
/// directive (`no-cache="Set-Cookie, no-transform"` is `no-cache` alone).
/// A malformed `max-age` or `s-maxage` reads as `0` (RFC 9111 §4.2.1: an
/// invalid freshness value means stale), a repeated one keeps the smallest
/// value (the conservative reading), and one too large to represent is
/// `Int32.max` seconds (§1.2.2: "a very long time"). The qualified forms
/// `no-cache="…"` and `private="…"` count as the unqualified ones.
///
/// Parsing walks the bytes once and allocates nothing: the work is linear
/// in the header's length whatever it holds.
public struct CacheControl: Sendable, Hashable {
    /// `no-store`: the response must not be stored.
    public var noStore = false
    /// `no-cache`: a stored response must be revalidated before each use.
    public var noCache = false
    /// `no-transform`: no intermediary may change the content.
    public var noTransform = false
    /// `private`: only a private (client) cache may store the response.
    public var isPrivate = false
    /// `public`: any cache may store the response.
    public var isPublic = false
    /// `max-age`, in seconds, when present.
    public var maxAge: Int?
    /// `s-maxage`, in seconds, when present (shared caches only).
    public var sharedMaxAge: Int?

    /// No directive at all: what an absent header means.
    public init() {}

    /// Parses one field value, e.g. `public, max-age=3600`; `nil` (no
    /// header) gives no directives.
    public init(_ header: String?) {
        if let header { parse(header) }
    }

    /// Parses every `Cache-Control` field value of a message, as if they
    /// were one comma-separated list.
    public init(values: [String]) {
        for value in values { parse(value) }
    }

    /// Whether any of `values` has `no-transform` (RFC 9111 §5.2.1.6,
    /// §5.2.2.6). Nearly every value lacks it, so one case-insensitive byte
    /// scan for the word comes before any parsing; a bridge may call this
    /// for every request.
    public static func containsNoTransform(_ values: [String]) -> Bool {
        values.contains { value in mentionsNoTransform(value) && CacheControl(value).noTransform }
    }

    /// ``containsNoTransform(_:)`` for one optional value.
    public static func containsNoTransform(_ value: String?) -> Bool {
        guard let value else { return false }
        return mentionsNoTransform(value) && CacheControl(value).noTransform
    }

    private mutating func parse(_ header: String) {
        header.withFieldBytes { bytes in
            var cursor = 0
            while cursor < bytes.count {
                let directive = Self.nextDirective(in: bytes, from: &cursor)
                apply(name: directive.name, argument: directive.argument, in: bytes)
            }
        }
    }

    /// Reads one directive from `cursor` and leaves `cursor` after the comma
    /// that ends it (or at the end). The name is trimmed; the argument is
    /// trimmed, and its quotes removed when it is a quoted string.
    private static func nextDirective(
        in bytes: UnsafeBufferPointer<UInt8>, from cursor: inout Int
    ) -> (name: Range<Int>, argument: Range<Int>?) {
        let nameStart = cursor
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ","), bytes[cursor] != UInt8(ascii: "=") {
            cursor += 1
        }
        let name = FieldBytes.trimmed(nameStart..<cursor, in: bytes)
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else {
            cursor += 1  // past the comma, or past the end
            return (name, nil)
        }
        cursor += 1
        while cursor < bytes.count, FieldBytes.isSpace(bytes[cursor]) { cursor += 1 }
        var argument: Range<Int>
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") {
            // A quoted string: up to the closing quote, skipping quoted pairs.
            let start = cursor + 1
            cursor = start
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\"") {
                cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
            }
            cursor = min(cursor, bytes.count)
            argument = start..<cursor
            if cursor < bytes.count { cursor += 1 }  // the closing quote
            // Anything between the quote and the comma is malformed and ignored.
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ",") { cursor += 1 }
        } else {
            let start = cursor
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ",") { cursor += 1 }
            argument = FieldBytes.trimmed(start..<cursor, in: bytes)
        }
        cursor += 1
        return (name, argument)
    }

    private mutating func apply(name: Range<Int>, argument: Range<Int>?, in bytes: UnsafeBufferPointer<UInt8>) {
        func named(_ expected: String) -> Bool { FieldBytes.equalsIgnoringCase(bytes, name, expected.utf8) }
        switch name.count {
        case 6 where named("public"): isPublic = true
        case 7 where named("private"): isPrivate = true
        case 7 where named("max-age"): maxAge = Self.smaller(maxAge, Self.seconds(argument, in: bytes))
        case 8 where named("no-store"): noStore = true
        case 8 where named("no-cache"): noCache = true
        case 8 where named("s-maxage"):
            sharedMaxAge = Self.smaller(sharedMaxAge, Self.seconds(argument, in: bytes))
        case 12 where named("no-transform"): noTransform = true
        default: break
        }
    }

    /// A delta-seconds argument: digits only, else `0`; too large, `Int32.max`.
    private static func seconds(_ argument: Range<Int>?, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let argument, !argument.isEmpty else { return 0 }
        var value = 0
        for index in argument {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return 0 }
            value = min(value * 10 + Int(digit), Int(Int32.max))
        }
        return value
    }

    private static func smaller(_ old: Int?, _ new: Int) -> Int { old.map { min($0, new) } ?? new }

    /// Whether `value` contains `no-transform` in any case, anywhere.
    private static func mentionsNoTransform(_ value: String) -> Bool {
        value.withFieldBytes { FieldBytes.contains("no-transform", ignoringCaseIn: $0) }
    }
}
