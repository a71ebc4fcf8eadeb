public import Foundation
public import HTTPServer

/// An ``HTTPServer`` on 127.0.0.1, port 0, for live tests: started with a
/// handler, reached through ``baseURL``, always shut down by ``with(_:_:)``.
public final class LoopbackServer: Sendable {
    /// The running server.
    public let server: HTTPServer
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public let baseURL: URL
    /// The bound port.
    public let port: Int

    private init(server: HTTPServer, endpoint: HTTPServer.Endpoint) {
        self.server = server
        self.port = endpoint.port
        self.baseURL = URL(string: endpoint.url)!
    }

    /// Starts `handler` on 127.0.0.1, port 0.
    /// - Parameters:
    ///   - handler: Answers every request.
    ///   - shutdownGracePeriod: How long ``shutdown()`` lets requests finish;
    ///     short by default, tests do not wait on stragglers.
    ///   - requestLog: Called once per finished request.
    public static func start(
        _ handler: some HTTPHandler, shutdownGracePeriod: Duration = .milliseconds(100),
        requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil
    ) async throws -> LoopbackServer {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.shutdownGracePeriod = shutdownGracePeriod
        let server = HTTPServer(configuration: configuration, handler: handler, requestLog: requestLog)
        let endpoint = try await server.start()
        return LoopbackServer(server: server, endpoint: endpoint)
    }

    /// Runs `body` with `handler` served on loopback, and shuts the server
    /// down afterwards whether `body` threw or not.
    public static func with<Result>(
        _ handler: some HTTPHandler, _ body: (LoopbackServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(handler)
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
