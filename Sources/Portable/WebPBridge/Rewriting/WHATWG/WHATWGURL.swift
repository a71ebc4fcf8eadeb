/// A URL parsed and serialised as the WHATWG URL standard does, which is how
/// browsers read the URLs in a page: tabs and newlines dropped, backslashes
/// read as `/` in special schemes, dot segments resolved, the standard's
/// percent-encode sets applied (an existing `%`, valid escape or not, is
/// never encoded again), hosts parsed (IPv4 numbers, IPv6, forbidden code
/// points), default ports dropped.
///
/// Not done: UTS #46 for internationalised hosts. A host that is not ASCII
/// after percent-decoding throws ``URLParseError/idnaUnsupported``, so such
/// URLs are left as written. An ASCII host (`xn--` labels included) is
/// lower-cased, which is all the standard does to one.
public struct WHATWGURL: Sendable, Hashable {
    /// The lower-cased scheme without its `:` (`https`).
    public internal(set) var scheme: String
    /// The percent-encoded user name (empty when none).
    public internal(set) var username: String = ""
    /// The percent-encoded password (empty when none).
    public internal(set) var password: String = ""
    /// The host, `nil` when the URL has none (`mailto:x`, `sc:/p`).
    public internal(set) var host: URLHost?
    /// The port, `nil` when none or the scheme's default.
    public internal(set) var port: Int?
    /// The path segments (each percent-encoded), or the opaque path of `mailto:x`.
    public internal(set) var path: URLPath = .segments([])
    /// The query without its `?`, `nil` when there is no `?`.
    public internal(set) var query: String?
    /// The fragment without its `#`, `nil` when there is no `#`.
    public internal(set) var fragment: String?

    /// The longest input parsed; longer ones throw ``URLParseError/tooLong``.
    public static let maxInputBytes = 1 << 20

    /// A URL's path.
    public enum URLPath: Sendable, Hashable {
        /// A hierarchical path: the segments between `/`s.
        case segments([String])
        /// The opaque path of a non-special URL with no `/` after its scheme.
        case opaque(String)
    }

    /// Parses `input`, resolving it against `base` when it is relative.
    ///
    /// - Throws: ``URLParseError`` when the standard's parser fails, or
    ///   ``URLParseError/idnaUnsupported`` for a host needing IDNA.
    public init(_ input: String, relativeTo base: WHATWGURL? = nil) throws(URLParseError) {
        guard input.utf8.count <= Self.maxInputBytes else { throw .tooLong }
        var parser = WHATWGParser(input: input, base: base)
        self = try parser.parse()
    }

    init(scheme: String) { self.scheme = scheme }

    /// Whether the scheme is one of the standard's special schemes.
    public var isSpecial: Bool { Self.defaultPort(scheme) != nil || scheme == "file" }

    /// The serialised path (`/a/b.jpg`, or the opaque path).
    public var pathString: String {
        switch path {
        case .opaque(let text): return text
        case .segments(let segments):
            var output = ""
            for segment in segments {
                output += "/"
                output += segment
            }
            return output
        }
    }

    /// The URL serialiser's output.
    public var href: String {
        var output = scheme + ":"
        if let host {
            output += "//"
            if !username.isEmpty || !password.isEmpty {
                output += username
                if !password.isEmpty { output += ":" + password }
                output += "@"
            }
            output += host.serialized
            if let port { output += ":\(port)" }
        } else if case .segments(let segments) = path, segments.count > 1, segments[0].isEmpty {
            output += "/."
        }
        output += pathString
        if let query { output += "?" + query }
        if let fragment { output += "#" + fragment }
        return output
    }

    /// The default port of a special scheme (`nil` for `file` and non-special schemes).
    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        case "ftp": 21
        default: nil
        }
    }

    static func isSpecialScheme(_ scheme: String) -> Bool {
        defaultPort(scheme) != nil || scheme == "file"
    }
}
