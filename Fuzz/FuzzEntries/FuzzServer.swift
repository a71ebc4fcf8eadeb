import Dispatch
import Foundation
import HTTPServer
import WebPBridge

/// The server `fuzz-request-head` talks to: started once per process on
/// 127.0.0.1, port 0, and never stopped (the process ends with the run).
final class FuzzServer: Sendable {
    /// The one server of this process, started on first use.
    static let shared = FuzzServer()

    /// The bound port.
    let port: Int
    private let server: HTTPServer

    private init() {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.shutdownGracePeriod = .milliseconds(100)
        // The smallest timeouts the server allows: an input the server waits
        // on (an unfinished request after the client half-closed) then costs
        // a second, not 30; a server that never closes is still a finding.
        configuration.limits.connectionTimeout = .seconds(1)
        configuration.limits.requestReceiveTimeout = .seconds(1)
        let handler = ClosureHTTPHandler(immediate: Self.immediateAnswer, Self.answer)
        server = HTTPServer(configuration: configuration, handler: handler)
        port = Self.startBlocking(server)
    }

    /// Answers on the server's thread, except targets with `async` in them,
    /// which take the suspend-and-resume path (both paths stay fuzzed; the
    /// immediate one is much faster per exchange).
    @Sendable private static func immediateAnswer(_ request: HTTPRequest) -> HTTPResponse? {
        request.target.contains("async") ? nil : summary(of: request)
    }

    @Sendable private static func answer(_ request: HTTPRequest) async -> HTTPResponse {
        summary(of: request)
    }

    /// Echoes what the server parsed, so every field of the request is read.
    private static func summary(of request: HTTPRequest) -> HTTPResponse {
        let summary = [
            request.method.rawValue, request.target, request.version, request.path, request.query ?? "-",
            "\(request.headers.count) headers", "\(request.body.count) body bytes",
        ]
        return .text(.ok, summary.joined(separator: "\n"))
    }

    /// Starts `server` from a synchronous context (libFuzzer's callback);
    /// the caller is never on Swift's cooperative pool, so waiting is safe.
    private static func startBlocking(_ server: HTTPServer) -> Int {
        let started = DispatchSemaphore(value: 0)
        let port = PortBox()
        Task {
            do {
                port.value = try await server.start().port
            } catch {
                fatalError("fuzz server did not start: \(error)")
            }
            started.signal()
        }
        started.wait()
        return port.value
    }
}

/// Carries the bound port from the starting task to the waiting thread.
///
/// `@unchecked Sendable`: written once before the semaphore is signalled and
/// read only after the wait returns, which orders the two.
private final class PortBox: @unchecked Sendable {
    var value = 0
}
