import Foundation
import HTTPServer
import TestSupport
import Testing
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starts a server on 127.0.0.1 and an ephemeral port, runs `body`, and
/// always shuts the server down.
func withLiveServer<Result>(
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil,
    handle: @escaping @Sendable (HTTPRequest) async -> HTTPResponse,
    body: (HTTPServer, HTTPServer.Endpoint) async throws -> Result
) async throws -> Result {
    try await withLiveServer(
        configuration: configuration, requestLog: requestLog, handler: ClosureHTTPHandler(handle), body: body)
}

/// Starts a server with `handler` on 127.0.0.1 and an ephemeral port, runs
/// `body`, and always shuts the server down (TestSupport's ``LoopbackServer``).
func withLiveServer<Result>(
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil,
    handler: some HTTPHandler,
    body: (HTTPServer, HTTPServer.Endpoint) async throws -> Result
) async throws -> Result {
    try await LoopbackServer.with(handler, configuration: configuration, requestLog: requestLog) { server in
        try await body(server.server, server.endpoint)
    }
}

/// A URLSession that gives up after 10 s.
func makeTestSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.timeoutIntervalForResource = 20
    return URLSession(configuration: configuration)
}

/// Fetches a URL and returns the status and body.
func fetch(_ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:])
    async throws -> (status: Int, headers: [String: String], body: Data)
{
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let session = makeTestSession()
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for case (let name as String, let value as String) in http.allHeaderFields { fields[name.lowercased()] = value }
    return (http.statusCode, fields, data)
}

/// Counts events across tasks.
final class Counter: Sendable {
    private let value = Lock(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// The largest value seen across tasks.
final class Maximum: Sendable {
    private let value = Lock(0)
    func record(_ candidate: Int) { value.withLock { $0 = max($0, candidate) } }
    var peak: Int { value.withLock { $0 } }
}
