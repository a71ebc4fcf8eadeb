public import Foundation
public import WebPBridge

/// A complete HTTP request as the server received it: a value that a handler
/// can also build by hand, so handlers are testable without sockets.
public struct HTTPRequest: Sendable, Equatable {
    /// The request method.
    public var method: HTTPMethod

    /// The request target exactly as sent on the request line, still
    /// percent-encoded, e.g. `/photos/a.jpg?imageView2/2/w/750`.
    public var target: String

    /// The HTTP version from the request line, e.g. `HTTP/1.1`.
    public var version: String

    /// The header fields.
    public var headers: HTTPFieldList

    /// The body (empty when there is none). The server never holds more than
    /// ``HTTPServer/Configuration/Limits-swift.struct/maxBodyBytes``.
    public var body: Data

    /// The client's address (`127.0.0.1`, `::1`), or `nil` when unknown.
    public var remoteAddress: String?

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - target: The raw request target, e.g. `/a.jpg?w=10`.
    ///   - version: The HTTP version; `HTTP/1.1` by default.
    ///   - headers: The header fields.
    ///   - body: The body.
    ///   - remoteAddress: The client's address, if known.
    public init(
        method: HTTPMethod = .get, target: String, version: String = "HTTP/1.1",
        headers: HTTPFieldList = [:], body: Data = Data(), remoteAddress: String? = nil
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The target up to `?`, still percent-encoded (`/a%20b.jpg`). For an
    /// absolute-form target (`http://host/a.jpg`, as sent to a forward proxy)
    /// this is the whole URL up to `?`.
    public var path: String {
        guard let mark = queryMark else { return target }
        return String(target[..<mark])
    }

    /// The text after the first `?`, still percent-encoded, or `nil` when the
    /// target has no `?`. Not parsed as `key=value` pairs, because image CDN
    /// grammars (`?imageView2/2/w/750`) are not.
    public var query: String? {
        guard let mark = queryMark else { return nil }
        return String(target[target.utf8.index(after: mark)...])
    }

    /// The first `?`, found among the UTF-8 bytes (much cheaper than a
    /// search by `Character`; `?` is ASCII, so the index is a character's).
    private var queryMark: String.Index? { target.utf8.firstIndex(of: UInt8(ascii: "?")) }

    /// ``path`` with percent-escapes decoded, or `nil` when an escape is
    /// malformed or decodes to invalid UTF-8.
    public var decodedPath: String? { path.removingPercentEncoding }
}
