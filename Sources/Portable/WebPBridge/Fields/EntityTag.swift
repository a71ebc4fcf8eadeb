/// Entity tags and `If-None-Match`, compared weakly as RFC 9110 requires for
/// `GET` and `HEAD`.
public enum EntityTag {
    /// A strong tag for an opaque value: `"<value>"`.
    public static func strong(_ value: String) -> String { "\"\(value)\"" }

    /// 64-bit FNV-1a over the parts a tag is derived from: short, stable
    /// across restarts, and the one hash the origin and the bridge share.
    public struct Digest: Sendable {
        @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

        /// The hash so far.
        public var value: UInt64 { state }

        public init() {}

        /// Mixes `bytes` into the hash. Inlinable, so callers in other
        /// modules get a loop specialised for their sequence type (a
        /// generic one costs a witness call a byte).
        @inlinable
        public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes {
                state ^= UInt64(byte)
                state = state &* 0x0000_0100_0000_01b3
            }
        }
    }

    /// Whether `ifNoneMatch` (a header value: `*` or a list of tags) matches
    /// `etag`, ignoring `W/` on either side.
    public static func ifNoneMatch(_ ifNoneMatch: String, matches etag: String) -> Bool {
        let wanted = opaque(etag)
        for candidate in ifNoneMatch.split(separator: ",") {
            let tag = candidate.trimmingSpacesAndTabs
            if tag == "*" || opaque(tag) == wanted { return true }
        }
        return false
    }

    /// Whether two entity tags name the same representation by the weak
    /// comparison of RFC 9110 §8.8.3.2 (`W/"x"` matches `"x"`), ignoring
    /// surrounding whitespace.
    public static func weaklyMatches(_ lhs: String, _ rhs: String) -> Bool {
        opaque(lhs[...].trimmingSpacesAndTabs) == opaque(rhs[...].trimmingSpacesAndTabs)
    }

    /// Whether an `If-None-Match` value is `*`, which any current
    /// representation matches (and a representation not made yet does not).
    public static func isWildcard(_ ifNoneMatch: String?) -> Bool {
        ifNoneMatch.map { $0[...].trimmingSpacesAndTabs == "*" } ?? false
    }

    private static func opaque(_ tag: some StringProtocol) -> Substring {
        var text = Substring(tag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        return text
    }
}
