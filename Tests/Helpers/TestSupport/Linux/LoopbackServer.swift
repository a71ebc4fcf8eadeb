public import Foundation
public import HTTPServer
import WebPBridge

/// An ``HTTPServer`` on loopback, port 0, for live tests — the server under
/// test, or a fake upstream that a test counts the requests of: started with
/// a handler, reached through ``baseURL``, always shut down by ``with(_:_:)``.
public final class LoopbackServer: Sendable {
    /// The running server.
    public let server: HTTPServer
    /// Where it listens.
    public let endpoint: HTTPServer.Endpoint
    /// `http://HOST:PORT`, without a trailing slash.
    public let baseURL: URL
    /// The bound port.
    public let port: Int
    private let arrivals: Lock<Int>

    private init(server: HTTPServer, endpoint: HTTPServer.Endpoint, arrivals: Lock<Int>) {
        self.server = server
        self.endpoint = endpoint
        self.port = endpoint.port
        self.baseURL = URL(string: endpoint.url)!
        self.arrivals = arrivals
    }

    /// Starts `handler` on 127.0.0.1, port 0.
    /// - Parameters:
    ///   - handler: Answers every request.
    ///   - host: A loopback address (any of 127.0.0.0/8), so a test can
    ///     have a second host.
    ///   - shutdownGracePeriod: How long ``shutdown()`` lets requests finish;
    ///     short by default, tests do not wait on stragglers.
    ///   - requestLog: Called once per finished request.
    public static func start(
        _ handler: some HTTPHandler, host: String = "127.0.0.1", shutdownGracePeriod: Duration = .milliseconds(100),
        requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil
    ) async throws -> LoopbackServer {
        var configuration = HTTPServer.Configuration(host: host, port: 0)
        configuration.shutdownGracePeriod = shutdownGracePeriod
        return try await start(handler, configuration: configuration, requestLog: requestLog)
    }

    /// Starts `handler` with `configuration` (its limits, methods and grace
    /// period), on its host if that is a loopback address, else on
    /// 127.0.0.1; always on port 0.
    public static func start(
        _ handler: some HTTPHandler, configuration: HTTPServer.Configuration,
        requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil
    ) async throws -> LoopbackServer {
        var configuration = configuration
        if !configuration.host.hasPrefix("127.") { configuration.host = "127.0.0.1" }
        configuration.port = 0
        let arrivals = Lock(0)
        let counted = ArrivalCounter(wrapped: handler, arrivals: arrivals)
        let server = HTTPServer(configuration: configuration, handler: counted, requestLog: requestLog)
        let endpoint = try await server.start()
        return LoopbackServer(server: server, endpoint: endpoint, arrivals: arrivals)
    }

    /// Requests that reached the handler so far (counted as each arrives,
    /// before it is answered): a fake upstream that must not be reached shows 0.
    public var requestCount: Int { arrivals.withLock { $0 } }

    /// Runs `body` with `handler` served on loopback (`host`, port 0), and
    /// shuts the server down afterwards whether `body` threw or not.
    public static func with<Result>(
        _ handler: some HTTPHandler, host: String = "127.0.0.1", _ body: (LoopbackServer) async throws -> Result
    ) async throws -> Result {
        try await run(try await start(handler, host: host), body)
    }

    /// ``with(_:_:)`` with `configuration` (see
    /// ``start(_:configuration:requestLog:)``).
    public static func with<Result>(
        _ handler: some HTTPHandler, configuration: HTTPServer.Configuration,
        requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil, _ body: (LoopbackServer) async throws -> Result
    ) async throws -> Result {
        try await run(try await start(handler, configuration: configuration, requestLog: requestLog), body)
    }

    private static func run<Result>(
        _ server: LoopbackServer, _ body: (LoopbackServer) async throws -> Result
    ) async throws -> Result {
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// `baseURL` with `target` (a path, with any query) appended.
    public func url(_ target: String) -> URL { URL(string: baseURL.absoluteString + target)! }

    /// Connections now open: a client that closed its connection is no
    /// longer counted once the server has noticed.
    public var openConnectionCount: Int { get async { await server.openConnectionCount } }

    /// Returns once no connection is open, woken by the server's connection
    /// events (see ``HTTPServer/waitUntilOpenConnections(_:)``).
    public func waitUntilNoOpenConnection() async {
        await server.waitUntilOpenConnections { $0 == 0 }
    }

    /// Stops the server (see ``HTTPServer/shutdown()``).
    public func shutdown() async { await server.shutdown() }

    /// A loopback URL where nothing listens: `/hello` on the port of a
    /// server that was started and shut down.
    public static func refusedURL() async throws -> URL {
        let server = try await start(ClosureHTTPHandler { _ in .text(.ok, "") })
        await server.shutdown()
        return server.url("/hello")
    }
}

/// Counts the requests that reach `wrapped`, whichever path answers them.
private struct ArrivalCounter<Wrapped: HTTPHandler>: HTTPHandler {
    let wrapped: Wrapped
    let arrivals: Lock<Int>

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        arrivals.withLock { $0 += 1 }
        return await wrapped.handle(request)
    }

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let response = wrapped.immediateResponse(to: request)
        if response != nil { arrivals.withLock { $0 += 1 } }
        return response
    }
}
