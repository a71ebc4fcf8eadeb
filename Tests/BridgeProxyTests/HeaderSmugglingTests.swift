import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import BridgeProxy

/// The bridge on a real socket in front of a byte-exact upstream, through
/// libcurl: no field a client sends becomes a different field upstream, and
/// no field an upstream sends becomes a different field for the client.
@Suite(.timeLimit(.suiteBound))
struct HeaderSmugglingTests {
    static let plainAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"

    /// Runs `body` with a reverse-mode bridge (loading with libcurl) served
    /// on loopback in front of an upstream that answers `answer`.
    static func withBridge(
        answering answer: String = plainAnswer, _ body: (LoopbackServer, RawHTTPListener) async throws -> Void
    ) async throws {
        let upstream = try RawHTTPListener(answer: answer)
        defer { upstream.stop() }
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge(
            upstreamURL: "http://127.0.0.1:\(upstream.port)", loader: CurlDataLoader())
        try await LoopbackServer.with(bridge) { server in try await body(server, upstream) }
    }

    static func exchange(_ port: Int, _ bytes: String) async throws -> RawHTTPConnection.Response {
        try await blocking {
            let connection = try RawHTTPConnection(port: port, timeout: 60)
            try connection.write(bytes)
            return try connection.readResponse()
        }
    }

    @Test(arguments: [
        ("bare CR", "GET /page.html HTTP/1.1\r\nHost: b\r\nX-A: foo\rInjected: 1\r\n\r\n"),
        ("obs-fold into Host", "GET /page.html HTTP/1.1\r\nHost: b\r\nHo:\r\n st: evil\r\n\r\n"),
        ("space before the colon", "GET /page.html HTTP/1.1\r\nHost: b\r\nTransfer-Encoding : chunked\r\n\r\n"),
        ("NUL in the target", "GET /page.html\0.jpg HTTP/1.1\r\nHost: b\r\n\r\n"),
        (
            "CL with TE",
            "POST /page.html HTTP/1.1\r\nHost: b\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: b\r\n\r\n"
        ),
    ])
    func smuggledFieldNeverReachesTheUpstream(_ label: String, request: String) async throws {
        try await Self.withBridge { server, upstream in
            let response = try await Self.exchange(server.port, request)
            #expect(response.status == 400, "\(label): got \(response.status)")
            #expect(upstream.heads.isEmpty, "\(label): the upstream received \(upstream.heads)")
        }
    }

    @Test func wellFormedFieldsArePassedOn() async throws {
        try await Self.withBridge { server, upstream in
            let response = try await Self.exchange(
                server.port, "GET /page.html HTTP/1.1\r\nHost: b\r\nX-A: foo bar\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.body == Data("ok".utf8))
            let head = String(decoding: try #require(upstream.heads.first), as: UTF8.self)
            #expect(head.contains("\r\nX-A: foo bar\r\n") || head.contains("\r\nx-a: foo bar\r\n"), "\(head)")
        }
    }

    @Test func foldedUpstreamFieldIsNotRelayedAsItsOwnField() async throws {
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Folded: a\r\n Set-Cookie: x=1\r\nConnection: close\r\n\r\nok"
        try await Self.withBridge(answering: answer) { server, _ in
            let response = try await Self.exchange(server.port, "GET /page.html HTTP/1.1\r\nHost: b\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.headers["Set-Cookie"] == nil, "\(response.headers)")
        }
    }

    @Test func differingUpstreamContentLengthsGet502() async throws {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok!"
        try await Self.withBridge(answering: answer) { server, _ in
            let response = try await Self.exchange(server.port, "GET /page.html HTTP/1.1\r\nHost: b\r\n\r\n")
            #expect(response.status == 502)
        }
    }

    /// Defence in depth at the relay, whatever the loader: a request built
    /// in code (not parsed by the server) or an upstream answer from a
    /// loader that does not check fields never carries a malformed field
    /// across the bridge.
    @Test func relayDropsMalformedFieldsBothWays() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(
            HTTPRequest(
                target: "/hop",
                headers: [
                    "X-Bad": "a\rInjected: 1", "Host: evil": "", "X-E2E": "yes", "X-End": "x\nSet-Cookie: a=b",
                ]))
        #expect(response.status == .ok)
        let sent = try #require(fixture.upstream.requests.last)
        let names = Set(sent.headers.map { $0.name.lowercased() })
        #expect(names.contains("x-e2e"))
        #expect(!names.contains("x-bad") && !names.contains("host: evil"), "\(names)")
        let relayed = HopByHopFields.responseFieldsToForward([
            "x-bad": "a\r\nSet-Cookie: x=1", "bad name": "v", "x-ok": "1",
        ])
        #expect(relayed == ["x-ok": "1"])
    }
}
