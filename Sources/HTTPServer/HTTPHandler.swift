/// Something that answers HTTP requests.
///
/// The server calls ``handle(_:)`` from a Swift task for every request whose
/// head and body were fully received, concurrently for concurrent requests.
/// A handler never sees a request that broke a limit: those are answered
/// (400, 413, 431, 501) before it is called.
///
/// ```swift
/// struct Hello: HTTPHandler {
///     func handle(_ request: HTTPRequest) async -> HTTPResponse {
///         .text(.ok, "hello \(request.path)")
///     }
/// }
/// ```
public protocol HTTPHandler: Sendable {
    /// Answers one request.
    /// - Parameter request: The request, with its whole body.
    /// - Returns: The response to send. For `HEAD`, the server omits the body.
    func handle(_ request: HTTPRequest) async -> HTTPResponse
}

/// A handler made from a closure, for tests and small tools.
///
/// ```swift
/// let server = HTTPServer(handler: ClosureHTTPHandler { _ in .text(.ok, "hi") })
/// ```
public struct ClosureHTTPHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) async -> HTTPResponse

    /// Creates a handler that calls `body` for every request.
    /// - Parameter body: The closure that answers.
    public init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }

    /// Calls the closure.
    /// - Parameter request: The request.
    /// - Returns: The closure's response.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }
}
