import Foundation
import HTTPServer
import TestSupport
import Testing
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveTests {
    @Suite struct Serving {
        @Test func getSeesMethodTargetHeadersAndAddress() async throws {
            try await withLiveServer(
                handle: { request in
                    .text(
                        .ok,
                        "\(request.method) \(request.path) \(request.query ?? "-") "
                            + "\(request.headers["x-probe"] ?? "-") \(request.remoteAddress ?? "-")")
                },
                body: { _, endpoint in
                    let response = try await fetch(
                        endpoint.url + "/a%20b.jpg?imageView2/2/w/750", headers: ["X-Probe": "yes"])
                    #expect(response.status == 200)
                    #expect(
                        String(decoding: response.body, as: UTF8.self)
                            == "GET /a%20b.jpg imageView2/2/w/750 yes 127.0.0.1\n")
                })
        }

        @Test func postBodyReachesHandler() async throws {
            let payload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try await withLiveServer(
                handle: { request in
                    .data(request.body, status: .created, contentType: "application/octet-stream")
                },
                body: { _, endpoint in
                    let response = try await fetch(endpoint.url + "/upload", method: "POST", body: payload)
                    #expect(response.status == 201)
                    #expect(response.body == payload)
                })
        }

        @Test func headSendsLengthWithoutBody() async throws {
            let body = Data(repeating: 7, count: 5000)
            try await withLiveServer(
                handle: { _ in .data(body, contentType: "application/octet-stream") },
                body: {
                    _, endpoint in
                    let (head, next) = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        try connection.write("HEAD /x HTTP/1.1\r\nHost: t\r\n\r\n")
                        let head = try connection.readResponse(head: true)
                        // If a body had been sent, it would be read as this response's head.
                        try connection.write("GET /x HTTP/1.1\r\nHost: t\r\n\r\n")
                        return (head, try connection.readResponse())
                    }
                    #expect(head.status == 200)
                    #expect(head.headers["Content-Length"] == "5000")
                    #expect(next.status == 200)
                    #expect(next.body == body)
                })
        }

        @Test func curlHeadAgreesWithGet() async throws {
            try await withLiveServer(
                handle: { _ in .text(.ok, "twelve bytes") },
                body: { _, endpoint in
                    let output = try await blocking { try runCurl(["-sS", "-I", endpoint.url + "/"]) }
                    #expect(output.hasPrefix("HTTP/1.1 200"))
                    #expect(output.lowercased().contains("content-length: 13"))
                })
        }

        @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
            let connections = Counter()
            try await withLiveServer(
                handle: { request in .text(.ok, request.path) },
                body: { server, endpoint in
                    let responses = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        return try (1...5).map { index in
                            try connection.write("GET /\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                            return try connection.readResponse()
                        }
                    }
                    #expect(responses.map(\.status) == [200, 200, 200, 200, 200])
                    #expect(responses.map { String(decoding: $0.body, as: UTF8.self) } == (1...5).map { "/\($0)\n" })
                    #expect(responses.allSatisfy { $0.headers["Connection"]?.lowercased() != "close" })
                    if await server.openConnectionCount <= 1 { connections.increment() }
                })
            #expect(connections.count == 1)
        }

        @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
            // /slow's handler is still running when /fast has arrived: it waits until the
            // client has sent both requests. /fast must still wait its turn.
            let bothSent = Barrier(count: 2)
            try await withLiveServer(
                handle: { request in
                    if request.path == "/slow" { await bothSent.arrive() }
                    return .text(.ok, request.path)
                },
                body: { _, endpoint in
                    let connection = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        try connection.write(
                            "GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
                        return connection
                    }
                    await bothSent.arrive()
                    let bodies = try await blocking {
                        try [connection.readResponse(), connection.readResponse()].map {
                            String(decoding: $0.body, as: UTF8.self)
                        }
                    }
                    #expect(bodies == ["/slow\n", "/fast\n"])
                })
        }

        @Test func suspendedHandlersServeConcurrentClients() async throws {
            // Every handler waits until all 16 are running at once: a server that
            // ran them one at a time would never answer, and the time limit fails it.
            let allRunning = Barrier(count: 16)
            try await withLiveServer(
                handle: { request in
                    await allRunning.arrive()
                    return .text(.ok, request.path)
                },
                body: { _, endpoint in
                    let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                        for index in 0..<16 {
                            group.addTask {
                                let response = try await fetch(endpoint.url + "/\(index)")
                                return String(decoding: response.body, as: UTF8.self)
                            }
                        }
                        return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                    }
                    #expect(bodies == Set((0..<16).map { "/\($0)\n" }))
                })
            #expect(allRunning.arrivals == 16)
        }

        @Test func fileBodiesWholeRangedAndMissing() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("photo.bin")
            let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            try content.write(to: file)
            try await withLiveServer(
                handle: { request in
                    switch request.path {
                    case "/whole": .file(path: file.path, contentType: "application/octet-stream")
                    case "/range":
                        .file(path: file.path, contentType: "application/octet-stream", offset: 1000, length: 500)
                    default: .file(path: directory.appendingPathComponent("missing").path, contentType: "image/jpeg")
                    }
                },
                body: { _, endpoint in
                    let (whole, range, head, missing) = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        func get(_ path: String, method: String = "GET") throws -> RawHTTPConnection.Response {
                            try connection.write("\(method) \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                            return try connection.readResponse(head: method == "HEAD")
                        }
                        return (
                            try get("/whole"), try get("/range"), try get("/whole", method: "HEAD"), try get("/missing")
                        )
                    }
                    #expect(whole.status == 200)
                    #expect(whole.body == content)
                    #expect(whole.headers["Content-Type"] == "application/octet-stream")
                    #expect(range.body == content[1000..<1500])
                    #expect(head.headers["Content-Length"] == "300000")
                    #expect(missing.status == 404)
                })
        }

        @Test func requestLogReportsEachRequestOnce() async throws {
            let records = LogRecords()
            try await withLiveServer(
                requestLog: { records.append($0) },
                handle: { request in request.path == "/missing" ? .text(.notFound, "no") : .text(.ok, "yes") },
                body: { _, endpoint in
                    _ = try await fetch(endpoint.url + "/found?x=1")
                    _ = try await fetch(endpoint.url + "/missing")
                })
            let logged = records.all.sorted { $0.target < $1.target }
            #expect(logged.map(\.target) == ["/found?x=1", "/missing"])
            #expect(logged.map { $0.status?.code } == [200, 404])
            #expect(logged.map(\.bodyBytes) == [4, 3])
            #expect(logged.allSatisfy { $0.method == .get && $0.completed && $0.remoteAddress == "127.0.0.1" })
        }
    }
}

/// Collects request logs from the server's threads.
final class LogRecords: Sendable {
    private let records = Lock<[HTTPRequestLog]>([])
    func append(_ record: HTTPRequestLog) { records.withLock { $0.append(record) } }
    var all: [HTTPRequestLog] { records.withLock { $0 } }
}

/// Runs curl (installed with the project's test tools) and returns stdout.
func runCurl(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl", "--max-time", "10"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
}
