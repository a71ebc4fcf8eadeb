/// Something that answers HTTP requests.
///
/// For every request whose head and body were fully received, the server
/// first asks ``immediateResponse(to:)`` on its own thread; when that
/// declines (returns `nil`, the default), it calls ``handle(_:)`` from a
/// Swift task, concurrently for concurrent requests. A handler never sees a
/// request that broke a limit: those are answered (400, 413, 431, 501)
/// before it is called.
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

    /// The response, when it is at hand without waiting: a file to send, a
    /// cached body, a `304`. Called on one of the server's own threads
    /// before ``handle(_:)``; a response returned here is sent at once,
    /// without suspending the connection or starting a task, which is what
    /// lets cheap answers run at the speed of the C library.
    ///
    /// It must not block (no waiting for locks held across slow work, no
    /// network, no transformations): while it runs, the other connections
    /// of its thread wait. Return `nil` to have ``handle(_:)`` answer; the
    /// default implementation always does.
    /// - Parameter request: The request, with its whole body.
    /// - Returns: The response to send, or `nil` to answer asynchronously.
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse?
}

extension HTTPHandler {
    /// Declines, so that ``handle(_:)`` answers every request.
    /// - Parameter request: The request.
    /// - Returns: `nil`.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? { nil }
}

/// A handler made from closures, for tests and small tools.
///
/// ```swift
/// let server = HTTPServer(handler: ClosureHTTPHandler { _ in .text(.ok, "hi") })
/// ```
public struct ClosureHTTPHandler: HTTPHandler {
    private let immediate: (@Sendable (HTTPRequest) -> HTTPResponse?)?
    private let body: @Sendable (HTTPRequest) async -> HTTPResponse

    /// Creates a handler that calls `body` for every request.
    /// - Parameter body: The closure that answers.
    public init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.immediate = nil
        self.body = body
    }

    /// Creates a handler that first offers every request to `immediate` (see
    /// ``HTTPHandler/immediateResponse(to:)``) and calls `body` for those
    /// it declines.
    /// - Parameters:
    ///   - immediate: Answers on the server's thread, or returns `nil`.
    ///   - body: The closure that answers the rest.
    public init(
        immediate: @escaping @Sendable (HTTPRequest) -> HTTPResponse?,
        _ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.immediate = immediate
        self.body = body
    }

    /// Calls the closure.
    /// - Parameter request: The request.
    /// - Returns: The closure's response.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }

    /// Calls the `immediate` closure, if there is one.
    /// - Parameter request: The request.
    /// - Returns: Its response, or `nil`.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? { immediate?(request) }
}
