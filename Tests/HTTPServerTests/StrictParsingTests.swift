import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing

extension LiveTests {
    /// RFC 9112 strictness: a request head that two parsers could read two
    /// ways is refused, so nothing behind or in front of the server can be
    /// told a different story (request smuggling, header injection).
    @Suite(.timeLimit(.suiteBound)) struct StrictParsing {
        /// Sends `bytes` on a new connection and reads one response.
        static func exchange(_ port: Int, _ bytes: String) async throws -> RawHTTPConnection.Response {
            try await blocking {
                let connection = try RawHTTPConnection(port: port, timeout: 60)
                try connection.write(bytes)
                return try connection.readResponse()
            }
        }

        static func echo(_ request: HTTPRequest) async -> HTTPResponse {
            .text(.ok, "\(request.method) \(request.target) \(request.body.count)")
        }

        /// Requests whose head is malformed in a way a lenient parser would
        /// read differently: each must get the status given, with a body,
        /// and never reach the handler.
        @Test(arguments: [
            ("bare CR in a value", "GET / HTTP/1.1\r\nHost: t\r\nX-A: foo\rInjected: 1\r\n\r\n", 400),
            ("NUL in a value", "GET / HTTP/1.1\r\nHost: t\r\nX-A: foo\0bar\r\n\r\n", 400),
            ("obs-fold", "GET / HTTP/1.1\r\nHost: t\r\nHo:\r\n st: evil\r\n\r\n", 400),
            ("obs-fold of a value", "GET / HTTP/1.1\r\nHost: t\r\nX-A: v\r\n b\r\n\r\n", 400),
            ("space before the colon", "GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding : chunked\r\n\r\n", 400),
            ("name not a token", "GET / HTTP/1.1\r\nHost: t\r\nX(A): 1\r\n\r\n", 400),
            ("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("NUL in the target", "GET /h.jpg\0.png HTTP/1.1\r\nHost: t\r\n\r\n", 400),
            ("CR in the target", "GET /a\rb HTTP/1.1\r\nHost: t\r\n\r\n", 400),
            ("ESC in the target", "GET /a\u{1B}[31mb HTTP/1.1\r\nHost: t\r\n\r\n", 400),
            ("unknown transfer coding", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            (
                "differing Content-Lengths",
                "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde", 400
            ),
            ("a Content-Length list", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3, 5\r\n\r\nabcde", 400),
            // libmicrohttpd compares these values as sent: it read no coding it knew and waited for
            // the body until the connection closed (an adversarial review).
            (
                "a tab after chunked",
                "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\t\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400
            ),
            (
                "a space after chunked",
                "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked \r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400
            ),
            // libmicrohttpd refuses these itself, before the server sees the head (its 0.9.75 writes
            // the head of such a refusal twice, the second inside the body; the connection closes).
            ("a space after a length", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3 \r\n\r\nabc", 400),
            (
                "a length past 64 bits",
                "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413
            ),
        ])
        func malformedHeadIsRefused(_ label: String, request: String, status: Int) async throws {
            let calls = Counter()
            let counting: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
                calls.increment()
                return await Self.echo(request)
            }
            try await withLiveServer(handle: counting) { _, endpoint in
                let response = try await Self.exchange(endpoint.port, request)
                #expect(response.status == status, "\(label): got \(response.status)")
                #expect(!response.body.isEmpty, "\(label): the refusal says why")
            }
            #expect(calls.count == 0, "\(label) reached the handler")
        }

        /// A target's bytes reach the handler exactly as sent, or the request
        /// is refused: raw UTF-8 is kept, other bytes above 0x7F are a 400
        /// (they came out as U+FFFD, a target the client never sent, which the
        /// proxy then forwarded; an adversarial review).
        @Test func targetBytesAreKeptOrRefused() async throws {
            try await withLiveServer(handle: Self.echo) { _, endpoint in
                let port = endpoint.port
                let refused = try await blocking {
                    let connection = try RawHTTPConnection(port: port, timeout: 60)
                    try connection.write(
                        Data("GET /echo".utf8) + Data([0xFF, 0xFE]) + Data(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
                    return try connection.readResponse()
                }
                #expect(refused.status == 400)
                #expect(String(decoding: refused.body, as: UTF8.self).contains("not UTF-8"))
                let kept = try await Self.exchange(port, "GET /caf\u{E9} HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(kept.status == 200)
                #expect(String(decoding: kept.body, as: UTF8.self) == "GET /caf\u{E9} 0\n")
            }
        }

        /// `Content-Length` with `Transfer-Encoding`: 400, and the connection
        /// is closed, so what a front proxy took for the body is never
        /// served as a second request.
        @Test(arguments: ["Transfer-Encoding: chunked", "Transfer-Encoding: gzip, chunked"])
        func contentLengthWithTransferEncodingClosesTheConnection(_ coding: String) async throws {
            let calls = Counter()
            let counting: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
                calls.increment()
                return await Self.echo(request)
            }
            try await withLiveServer(handle: counting) { _, endpoint in
                let (status, closed) = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port, timeout: 60)
                    try connection.write(
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 40\r\n\(coding)\r\n\r\n"
                            + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n")
                    let response = try connection.readResponse()
                    return (response.status, connection.waitForClose())
                }
                #expect(status == 400)
                #expect(closed)
            }
            #expect(calls.count == 0, "the smuggled request was served")
        }

        /// Identical repeated lengths are one length (RFC 9110 §8.6) and a
        /// well-formed request still works on a kept-alive connection.
        @Test func identicalContentLengthsAndPlainRequestsAreServed() async throws {
            try await withLiveServer(handle: Self.echo) { _, endpoint in
                let (first, second) = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port, timeout: 60)
                    try connection.write(
                        "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc")
                    let first = try connection.readResponse()
                    try connection.write("GET /b?x=1 HTTP/1.1\r\nhost: t\r\nX-Tab:\tv \r\n\r\n")
                    return (first, try connection.readResponse())
                }
                #expect(first.status == 200)
                #expect(String(decoding: first.body, as: UTF8.self) == "POST /a 3\n")
                #expect(second.status == 200)
                #expect(String(decoding: second.body, as: UTF8.self) == "GET /b?x=1 0\n")
            }
        }

        /// Requests too big to hold are answered (414/431 with a body, or
        /// served), never met with silence.
        @Test(arguments: [
            (
                "500 query items",
                "GET /q?" + (0..<500).map { "k\($0)=v" }.joined(separator: "&") + " HTTP/1.1\r\nHost: t\r\n\r\n"
            ),
            ("2000 query items", "GET /q?" + String(repeating: "a&", count: 2000) + " HTTP/1.1\r\nHost: t\r\n\r\n"),
            ("600 header fields", "GET / HTTP/1.1\r\nHost: t\r\n" + String(repeating: "a: b\r\n", count: 600) + "\r\n"),
            ("a 40 KB target", "GET /" + String(repeating: "x", count: 40_000) + " HTTP/1.1\r\nHost: t\r\n\r\n"),
        ])
        func requestTooBigToHoldIsAnswered(_ label: String, request: String) async throws {
            try await withLiveServer(handle: Self.echo) { _, endpoint in
                let response = try await Self.exchange(endpoint.port, request)
                #expect([200, 414, 431].contains(response.status), "\(label): got \(response.status)")
                #expect(!response.body.isEmpty, "\(label): an answer with a body")
            }
        }

        /// Control bytes a client put in a target never reach a log line raw.
        @Test func logLinesEscapeControlBytes() {
            let record = HTTPRequestLog(
                method: .get, target: "/a\u{1B}[31m\r\nfake 200\u{7F}", status: .ok, bodyBytes: 1,
                duration: .milliseconds(1), remoteAddress: "127.0.0.1", completed: true)
            let line = record.description
            #expect(!line.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "\(line)")
            #expect(line.contains(#"/a\x1B[31m\x0D\x0Afake 200\x7F"#), "\(line)")
        }
    }
}
