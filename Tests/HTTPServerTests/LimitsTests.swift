import Foundation
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension LiveTests {
    /// Abuse that must cost the server a 4xx or a closed connection, never
    /// a crash, unbounded memory or other clients' service.
    @Suite struct Limits {
        static func echo(_ request: HTTPRequest) async -> HTTPResponse {
            .text(.ok, "\(request.method) \(request.path) \(request.body.count)")
        }

        /// A plain request on a new connection, to show the server still serves.
        static func probe(_ port: Int, timeout: TimeInterval = 30) async throws -> Int {
            try await blocking {
                let connection = try RawHTTPConnection(port: port, timeout: timeout)
                try connection.write("GET /probe HTTP/1.1\r\nHost: t\r\n\r\n")
                return try connection.readResponse().status
            }
        }

        @Test func declaredOversizedBodyGets413WithoutReadingIt() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.limits.maxBodyBytes = 1000
            let calls = Counter()
            try await withLiveServer(
                configuration: configuration,
                handle: { request in
                    calls.increment()
                    return await Self.echo(request)
                },
                body: { _, endpoint in
                    let response = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        try connection.write("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 50000000\r\n\r\n")
                        return try connection.readResponse()
                    }
                    #expect(response.status == 413)
                    #expect(try await Self.probe(endpoint.port) == 200)
                })
            #expect(calls.count == 1)  // only the probe
        }

        @Test func chunkedBodyOverTheLimitGets413() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.limits.maxBodyBytes = 1000
            try await withLiveServer(configuration: configuration, handle: Self.echo) { _, endpoint in
                let (small, large) = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port)
                    let chunk = String(repeating: "a", count: 600)
                    try connection.write(
                        "POST /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
                    let small = try connection.readResponse()
                    try connection.write(
                        "POST /b HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
                    return (small, try connection.readResponse())
                }
                #expect(small.status == 200)
                #expect(String(decoding: small.body, as: UTF8.self) == "POST /a 600\n")
                #expect(large.status == 413)
            }
        }

        @Test func hugeHeaderGets4xx() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.limits.maxHeaderBytes = 8 * 1024
            try await withLiveServer(configuration: configuration, handle: Self.echo) { _, endpoint in
                let (header, target) = try await blocking {
                    let big = String(repeating: "x", count: 64 * 1024)
                    let first = try RawHTTPConnection(port: endpoint.port)
                    try? first.write("GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(big)\r\n\r\n")
                    let second = try RawHTTPConnection(port: endpoint.port)
                    try? second.write("GET /\(big) HTTP/1.1\r\nHost: t\r\n\r\n")
                    return (try first.readResponse().status, try second.readResponse().status)
                }
                #expect([400, 431].contains(header), "huge header field got \(header)")
                #expect([400, 414, 431].contains(target), "huge target got \(target)")
                #expect(try await Self.probe(endpoint.port) == 200)
            }
        }

        @Test(
            arguments: [
                ("FOO / HTTP/1.1\r\nHost: t\r\n\r\n", 501),
                ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n", 501),
                ("G(T / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
                ("garbage \u{1}\u{2} garbage\r\n\r\n", 400),
                ("GET /\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n", 400),
            ] as [(String, Int)])
        func badRequestsGet4xxOr501(request: String, expected: Int) async throws {
            let calls = Counter()
            try await withLiveServer(
                handle: { request in
                    calls.increment()
                    return await Self.echo(request)
                },
                body: { _, endpoint in
                    let status = try await blocking {
                        let connection = try RawHTTPConnection(port: endpoint.port)
                        try connection.write(request)
                        return try connection.readResponse().status
                    }
                    #expect(status == expected, "\(request.debugDescription)")
                    #expect(try await Self.probe(endpoint.port) == 200)
                })
            #expect(calls.count == 1)  // only the probe
        }

        /// libmicrohttpd 0.9.75 closes the connection without an answer when
        /// the request line has no target; no callback of ours runs, so that
        /// is all the server can do.
        @Test(arguments: ["\u{1}\u{2}garbage\r\n\r\n", "GET\r\n\r\n", "\u{16}\u{3}\u{1}\u{2}\u{0}\r\n\r\n"])
        func requestLinesWithoutTargetAreClosed(request: String) async throws {
            try await withLiveServer(handle: Self.echo) { _, endpoint in
                let outcome = try await blocking { () -> String in
                    let connection = try RawHTTPConnection(port: endpoint.port)
                    try connection.write(request)
                    do {
                        return "status \(try connection.readResponse().status)"
                    } catch {
                        return "closed"
                    }
                }
                #expect(outcome == "closed" || outcome == "status 400")
                #expect(try await Self.probe(endpoint.port) == 200)
            }
        }

        @Test func truncatedBodyLeavesServerServing() async throws {
            let calls = Counter()
            try await withLiveServer(
                handle: { request in
                    calls.increment()
                    return await Self.echo(request)
                },
                body: { server, endpoint in
                    try await blocking {
                        for _ in 0..<20 {
                            let connection = try RawHTTPConnection(port: endpoint.port)
                            try connection.write("POST /t HTTP/1.1\r\nHost: t\r\nContent-Length: 10000\r\n\r\n")
                            try connection.write(String(repeating: "b", count: 100))
                        }  // each connection closes here, mid-body
                    }
                    #expect(try await Self.probe(endpoint.port) == 200)
                    #expect(await server.openConnectionCount <= 21)
                })
            #expect(calls.count == 1)
        }

        @Test func slowClientIsDisconnectedWhileOthersAreServed() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.limits.requestReceiveTimeout = .seconds(2)
            configuration.limits.connectionTimeout = .seconds(2)
            try await withLiveServer(configuration: configuration, handle: Self.echo) { _, endpoint throws in
                let slow = Task.detached {
                    // One byte a second, which resets an idle timeout every time.
                    let connection = try RawHTTPConnection(port: endpoint.port, timeout: 1)
                    for byte in "GET /slow HTTP/1.1\r\nHost: t\r\nX-Padding: aaaaaaaaaaaaaaaa".utf8 {
                        do { try connection.write(Data([byte])) } catch { return true }
                        if connection.waitForClose() { return true }  // waits up to 1 s
                    }
                    return false
                }
                // Served while the slow client still trickles (it is connected for
                // seconds; its own result is awaited below).
                for _ in 0..<3 {
                    #expect(try await Self.probe(endpoint.port) == 200)
                }
                #expect(try await slow.value, "the slow client was still connected after 40 s")
            }
        }

        @Test func thousandConnectionsAtOnceStayWithinTheLimit() async throws {
            var configuration = HTTPServer.Configuration()
            configuration.limits.maxConnections = 400
            // The global limit alone: every connection here comes from 127.0.0.1.
            configuration.limits.maxConnectionsPerClient = nil
            configuration.limits.requestReceiveTimeout = .seconds(1)
            try await withLiveServer(configuration: configuration, handle: Self.echo) { server, endpoint in
                let idle = try await blocking {
                    try (0..<1000).map { _ in try RawHTTPConnection(port: endpoint.port, timeout: 1) }
                }
                // Connections beyond the limit wait in the kernel's queue; idle
                // ones are dropped after requestReceiveTimeout, so a real
                // request gets through.
                let peak = Maximum()
                let status = try await withThrowingTaskGroup(of: Int?.self) { group in
                    group.addTask {
                        // Sees the count now and at every connection opening or
                        // closing while the probe runs, until cancelled.
                        await server.waitUntilOpenConnections { count in
                            peak.record(count)
                            return false
                        }
                        return nil
                    }
                    let status = try await Self.probe(endpoint.port, timeout: 30)
                    group.cancelAll()
                    return status
                }
                #expect(status == 200)
                #expect(peak.peak > 0)
                #expect(peak.peak <= 400)
                withExtendedLifetime(idle) {}
            }
        }
    }
}
