/// Why a string is not a URL, as the WHATWG URL standard's basic URL parser
/// decides (each case is one of the standard's failures), plus the one input
/// this parser refuses that a browser would accept: a host that needs IDNA.
public struct URLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case missingSchemeNonRelativeURL
        case hostMissing
        case hostInvalidCodePoint
        case domainInvalidCodePoint
        case ipv4Invalid
        case ipv6Invalid
        case portInvalid
        case portOutOfRange
        case idnaUnsupported
        case tooLong
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// A relative reference with no base (or a base with an opaque path).
    public static let missingSchemeNonRelativeURL = Self(.missingSchemeNonRelativeURL)
    /// A special scheme (`http`, `https`…) with an empty host, or credentials with no host.
    public static let hostMissing = Self(.hostMissing)
    /// A forbidden host code point (space, `<`, `^`, `|`…) in a host.
    public static let hostInvalidCodePoint = Self(.hostInvalidCodePoint)
    /// A forbidden domain code point (`%`, a control…) in a domain after percent-decoding.
    public static let domainInvalidCodePoint = Self(.domainInvalidCodePoint)
    /// A host that ends in a number but is not a valid IPv4 address (`1.2.3.256`, `0x100000000`).
    public static let ipv4Invalid = Self(.ipv4Invalid)
    /// A bracketed host that is not a valid IPv6 address.
    public static let ipv6Invalid = Self(.ipv6Invalid)
    /// A port with a character other than an ASCII digit.
    public static let portInvalid = Self(.portInvalid)
    /// A port above 65535.
    public static let portOutOfRange = Self(.portOutOfRange)
    /// A host that is not ASCII after percent-decoding, so needs UTS #46
    /// mapping: a browser may accept it, this parser does not, so such URLs
    /// are left as they are.
    public static let idnaUnsupported = Self(.idnaUnsupported)
    /// An input longer than ``WHATWGURL/maxInputBytes``.
    public static let tooLong = Self(.tooLong)

    /// Whether the input might be valid for a browser (a host needing IDNA):
    /// refused here for want of UTS #46, not because it is malformed.
    public var isUnsupported: Bool { kind == .idnaUnsupported || kind == .tooLong }

    public var description: String {
        switch kind {
        case .missingSchemeNonRelativeURL: "not an absolute URL, and no base to resolve it against"
        case .hostMissing: "the URL has no host"
        case .hostInvalidCodePoint: "the host has a forbidden character"
        case .domainInvalidCodePoint: "the domain has a forbidden character"
        case .ipv4Invalid: "the host ends in a number but is not an IPv4 address"
        case .ipv6Invalid: "the host is not a valid IPv6 address"
        case .portInvalid: "the port is not a number"
        case .portOutOfRange: "the port is above 65535"
        case .idnaUnsupported: "the host needs IDNA (UTS #46), which this parser does not do"
        case .tooLong: "the URL is longer than \(WHATWGURL.maxInputBytes) bytes"
        }
    }
}
