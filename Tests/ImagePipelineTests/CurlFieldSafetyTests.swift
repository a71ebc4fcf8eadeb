import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// What libcurl writes upstream and what it relays back obey the same field
/// grammar as the server's requests: a field that would become two lines
/// (or none) for the other side is never written, and an upstream's
/// response that two parsers would read two ways is refused.
@Suite(.timeLimit(.suiteBound))
struct CurlFieldSafetyTests {
    static let plainAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"

    /// Defence in depth: the server refuses these heads, but a loader is
    /// also called with fields built in code.
    @Test(arguments: [
        ("x-a", "foo\rInjected: 1"), ("x-a", "foo\r\nInjected: 1"), ("x-a", "foo\nInjected: 1"),
        ("x-a", "foo\0bar"), ("transfer-encoding ", "chunked"), ("host: evil", ""), ("x(a)", "1"), ("", "v"),
    ])
    func unsafeRequestFieldIsNeverWritten(name: String, value: String) async throws {
        let upstream = try RawHTTPListener(answer: Self.plainAnswer)
        defer { upstream.stop() }
        let request = DataRequest(url: upstream.url("/x"), headers: ["x-ok": "1", name: value])
        await #expect(throws: DataLoadingError.self) { try await CurlDataLoader().load(request) }
        #expect(upstream.heads.isEmpty, "the upstream received \(upstream.heads)")
    }

    @Test func safeFieldsAreWrittenAsGiven() async throws {
        let upstream = try RawHTTPListener(answer: Self.plainAnswer)
        defer { upstream.stop() }
        let request = DataRequest(url: upstream.url("/x"), headers: ["X-Ok": "a\tb ü"])
        let response = try await CurlDataLoader().load(request)
        #expect(response.statusCode == 200)
        let head = String(decoding: try #require(upstream.heads.first), as: UTF8.self)
        #expect(head.contains("\r\nX-Ok: a\tb ü\r\n"), "\(head)")
    }

    /// The upstream gets the request asked for: its method with its body
    /// (libcurl's own would send a GET with a body as POST), empty values
    /// (libcurl reads `Name:` as "remove"), and no field libcurl adds of
    /// its own (`Accept: */*`, a form `Content-Type`, `Expect`).
    @Test(arguments: [
        ("GET", "hello", "GET /x HTTP/1.1\r\n"), ("POST", "hello", "POST /x HTTP/1.1\r\n"),
        ("PUT", "", "PUT /x HTTP/1.1\r\n"), ("get", "", "get /x HTTP/1.1\r\n"),
    ])
    func theRequestIsSentAsAsked(method: String, body: String, requestLine: String) async throws {
        let upstream = try RawHTTPListener(answer: Self.plainAnswer)
        defer { upstream.stop() }
        let request = DataRequest(
            url: upstream.url("/x"), method: method, headers: ["X-Empty": "", "User-Agent": "t"],
            body: body.isEmpty && method != "PUT" ? nil : Data(body.utf8))
        _ = try await CurlDataLoader().load(request)
        let head = String(decoding: try #require(upstream.heads.first), as: UTF8.self)
        #expect(head.hasPrefix(requestLine), "\(head)")
        #expect(head.contains("\r\nX-Empty: \r\n") || head.contains("\r\nX-Empty:\r\n"), "\(head)")
        for added in ["Accept:", "Content-Type:", "Expect:"] {
            #expect(!head.lowercased().contains("\r\n" + added.lowercased()), "\(added) in \(head)")
        }
        #expect(head.contains("\r\nContent-Length: \(body.utf8.count)\r\n") == (request.body != nil), "\(head)")
    }

    /// RFC 9112 §5.2: an obs-fold in a response is replaced by a space; it
    /// never becomes a field of its own.
    @Test func foldedResponseFieldStaysOneField() async throws {
        let upstream = try RawHTTPListener(
            answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Folded: a\r\n Injected: 1\r\nConnection: close\r\n\r\nok"
        )
        defer { upstream.stop() }
        let response = try await CurlDataLoader().load(DataRequest(url: upstream.url("/x")))
        #expect(response.headers["injected"] == nil, "\(response.headers)")
        #expect(response.headers["x-folded"] == "a Injected: 1", "\(response.headers)")
    }

    /// Response heads a relay must not pass on: 502 (a loader error).
    @Test(arguments: [
        ("differing Content-Lengths", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!"),
        ("space before the colon", "HTTP/1.1 200 OK\r\nContent-Length : 2\r\nX-A: 1\r\n\r\nok"),
        ("name not a token", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX(A): 1\r\n\r\nok"),
        ("bare CR in a value", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\rSet-Cookie: a=b\r\n\r\nok"),
    ])
    func malformedResponseHeadIsRefused(_ label: String, answer: String) async throws {
        let upstream = try RawHTTPListener(answer: answer)
        defer { upstream.stop() }
        await #expect(throws: DataLoadingError.self, "\(label)") {
            try await CurlDataLoader().load(DataRequest(url: upstream.url("/x")))
        }
    }
}
