import Foundation
import HTTPServer
import TestSupport
import Testing
import WebPBridge

extension LiveTests {
    /// Answers from `HTTPHandler.immediateResponse(to:)`, on the server's
    /// thread, must be indistinguishable on the wire from asynchronous ones.
    @Suite struct ImmediateResponses {
        /// Answers `/now/…` immediately (recording that it did) and
        /// everything else asynchronously.
        struct SplitHandler: HTTPHandler {
            let immediate = Counter()
            let asynchronous = Counter()
            let large = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })

            func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
                guard request.path.hasPrefix("/now") else { return nil }
                immediate.increment()
                return response(for: request)
            }

            func handle(_ request: HTTPRequest) async -> HTTPResponse {
                asynchronous.increment()
                return response(for: request)
            }

            func response(for request: HTTPRequest) -> HTTPResponse {
                request.path.hasSuffix("/large")
                    ? .data(large, contentType: "application/octet-stream", headers: ["X-Answer": request.path])
                    : .text(.ok, request.path, headers: ["X-Answer": request.path])
            }
        }

        @Test func immediateAnswersSkipTheAsyncHandlerAndKeepTheConnection() async throws {
            let handler = SplitHandler()
            try await withLiveServer(handler: handler) { server, endpoint in
                let responses = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port)
                    return try ["/now/1", "/now/large", "/later/1", "/now/2", "/later/large"].map { path in
                        try connection.write("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                        return try connection.readResponse()
                    }
                }
                #expect(responses.map(\.status) == [200, 200, 200, 200, 200])
                #expect(
                    responses.map { $0.headers["X-Answer"] } == [
                        "/now/1", "/now/large", "/later/1", "/now/2", "/later/large",
                    ])
                #expect(String(decoding: responses[0].body, as: UTF8.self) == "/now/1\n")
                #expect(responses[1].body == handler.large)
                #expect(responses[4].body == handler.large)
                #expect(responses.allSatisfy { $0.headers["Connection"]?.lowercased() != "close" })
            }
            #expect(handler.immediate.count == 3)
            #expect(handler.asynchronous.count == 2)
        }

        @Test func declinedRequestsReachTheAsyncHandler() async throws {
            let handler = SplitHandler()
            try await withLiveServer(handler: handler) { _, endpoint in
                let response = try await fetch(endpoint.url + "/later/x")
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "/later/x\n")
            }
            #expect(handler.immediate.count == 0)
            #expect(handler.asynchronous.count == 1)
        }

        @Test(arguments: ["/now/large", "/now/small", "/later/large"])
        func headGetsTheLengthOfGetWithoutTheBody(path: String) async throws {
            try await withLiveServer(handler: SplitHandler()) { _, endpoint in
                let (head, get) = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port)
                    try connection.write("HEAD \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                    let head = try connection.readResponse(head: true)
                    // A body sent after the HEAD would be read as this response's head.
                    try connection.write("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                    return (head, try connection.readResponse())
                }
                #expect(head.status == 200)
                #expect(head.headers["Content-Length"] == String(get.body.count))
                #expect(get.status == 200)
            }
        }

        @Test func sharedBodiesSurviveConcurrentSends() async throws {
            let handler = SplitHandler()
            try await withLiveServer(handler: handler) { _, endpoint in
                let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            try await blocking {
                                let connection = try RawHTTPConnection(port: endpoint.port)
                                var last = Data()
                                for _ in 0..<10 {
                                    try connection.write("GET /now/large HTTP/1.1\r\nHost: t\r\n\r\n")
                                    let body = try connection.readResponse().body
                                    guard body == handler.large else { return body }
                                    last = body
                                }
                                return last
                            }
                        }
                    }
                    return try await group.reduce(into: [Data]()) { $0.append($1) }
                }
                #expect(bodies.count == 8)
                #expect(bodies.allSatisfy { $0 == handler.large })
            }
        }

        @Test func requestLogReportsImmediateAnswers() async throws {
            let records = LogRecords()
            try await withLiveServer(
                requestLog: { records.append($0) }, handler: SplitHandler(),
                body: { _, endpoint in
                    _ = try await fetch(endpoint.url + "/now/large")
                    _ = try await fetch(endpoint.url + "/now/x", method: "HEAD")
                })
            let logged = records.all.sorted { $0.target < $1.target }
            #expect(logged.map(\.target) == ["/now/large", "/now/x"])
            #expect(logged.map { $0.status?.code } == [200, 200])
            #expect(logged.map(\.bodyBytes) == [100_000, 0])
            #expect(logged.allSatisfy { $0.completed })
        }

        @Test func refusalsStillComeBeforeTheHandler() async throws {
            let handler = SplitHandler()
            try await withLiveServer(handler: handler) { _, endpoint in
                let response = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port)
                    try connection.write("GET /now/1 HTTP/1.1\r\n\r\n")
                    return try connection.readResponse()
                }
                #expect(response.status == 400)
            }
            #expect(handler.immediate.count == 0)
        }
    }
}
