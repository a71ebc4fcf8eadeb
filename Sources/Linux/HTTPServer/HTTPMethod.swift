/// An HTTP request method, such as `GET` or `POST`.
///
/// Methods are case-sensitive tokens (RFC 9110 §9.1); the server passes
/// whatever token the client sent, and answers `501 Not Implemented` itself
/// for methods outside ``HTTPServer/Configuration/acceptedMethods``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The method token as sent on the request line.
    public let rawValue: String

    /// Creates a method from its token.
    /// - Parameter rawValue: The token, e.g. `"GET"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal.
    /// - Parameter value: The token, e.g. `"GET"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`
    public static let get: HTTPMethod = "GET"
    /// `HEAD`
    public static let head: HTTPMethod = "HEAD"
    /// `POST`
    public static let post: HTTPMethod = "POST"
    /// `PUT`
    public static let put: HTTPMethod = "PUT"
    /// `DELETE`
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`
    public static let options: HTTPMethod = "OPTIONS"
    /// `PATCH`
    public static let patch: HTTPMethod = "PATCH"
    /// `CONNECT`
    public static let connect: HTTPMethod = "CONNECT"
    /// `TRACE`
    public static let trace: HTTPMethod = "TRACE"

    /// The methods a server passes to its handler by default: every method
    /// of RFC 9110 except `CONNECT` and `TRACE`, which an origin or a reverse
    /// proxy has no business answering.
    public static let standard: Set<HTTPMethod> = [.get, .head, .post, .put, .delete, .options, .patch]
}
