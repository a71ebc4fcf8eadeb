import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// What an upstream's header section becomes on its way through the bridge,
/// with libcurl as the loader and a byte-exact upstream: fields relayed as
/// sent (repeats, order, bytes), trailers never turned into header fields,
/// and a head too large to relay answered with 502, never 0 bytes.
@Suite(.timeLimit(.suiteBound))
struct UpstreamHeadTests {
    /// A reverse bridge on a real socket in front of `upstream`, with a qiniu
    /// rule for `127.0.0.1` so `/a.jpg` takes the image path (variant, then
    /// original) and anything else passes through.
    struct LiveBridge {
        let server: HTTPServer
        let endpoint: HTTPServer.Endpoint
        let cache: MemoryDataCache

        init(upstream: RawHTTPListener) async throws {
            let site = upstream.url("")
            let rewriter = try Rewriter(
                configuration: RewritePreset.configuration(named: "qiniu", host: "127.0.0.1", width: 750))
            let mode = BridgeProxy.Configuration.Mode.reverse(upstream: site)
            cache = MemoryDataCache()
            let pipeline = ImagePipeline(
                configuration: .init(
                    rewriter: rewriter, dataLoader: CurlDataLoader(), dataCache: cache, memoryCache: nil,
                    redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
            let bridge = try BridgeProxy(
                configuration: .init(mode: mode, pipeline: pipeline, passthroughLoader: CurlDataLoader()))
            server = HTTPServer(configuration: .init(), handler: bridge)
            endpoint = try await server.start()
        }

        /// Sends `targets` pipelined on one connection and reads an answer to
        /// each, on a thread of its own: the socket blocks, and the bridge
        /// answering needs the cooperative pool, which a few blocked tests fill.
        func get(_ targets: [String]) async throws -> [RawHTTPConnection.Response] {
            let port = endpoint.port
            return try await blocking {
                let connection = try RawHTTPConnection(port: port)
                try connection.write(targets.map { "GET \($0) HTTP/1.1\r\nHost: bridge.test\r\n\r\n" }.joined())
                return try targets.map { _ in try connection.readResponse() }
            }
        }
    }

    static func answer(_ fields: String, body: String = "ok") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\(fields)Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)"
    }

    /// RFC 9110 §5.3, RFC 6265 §3: two `Set-Cookie` lines are never combined.
    @Test func twoSetCookieLinesArriveAsTwo() async throws {
        let upstream = try RawHTTPListener(
            answer: Self.answer("Set-Cookie: sid=abc; Path=/; HttpOnly\r\nSet-Cookie: theme=dark; Path=/\r\n"))
        defer { upstream.stop() }
        let bridge = try await LiveBridge(upstream: upstream)
        let response = try #require(try await bridge.get(["/page"]).first)
        await bridge.server.shutdown()
        #expect(response.status == 200)
        #expect(response.headers.values(for: "Set-Cookie") == ["sid=abc; Path=/; HttpOnly", "theme=dark; Path=/"])
    }

    /// A reverse-mode `Location` that is not UTF-8 is relayed byte for
    /// byte, not moved onto the bridge through a text that changed its
    /// bytes to U+FFFD (an adversarial review).
    @Test func aLocationThatIsNotUTF8IsRelayedAsSent() async throws {
        var bytes = Data(
            "HTTP/1.1 302 Found\r\nLocation: /caf\u{1}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        let marker = try #require(bytes.firstRange(of: Data([0x01])))
        bytes.replaceSubrange(marker, with: [0xFF])
        let upstream = try RawHTTPListener(answerBytes: bytes)
        defer { upstream.stop() }
        let bridge = try await LiveBridge(upstream: upstream)
        let response = try #require(try await bridge.get(["/page"]).first)
        await bridge.server.shutdown()
        #expect(response.status == 302)
        let field = try #require(response.headers.fields(named: "Location").first)
        #expect(Array(field.valueBytes) == Array("/caf".utf8) + [0xFF])
    }

    /// A value that is not UTF-8 (obs-text, RFC 9110 §5.5) is relayed byte for byte.
    @Test func nonUTF8FieldBytesAreRelayedAsSent() async throws {
        var bytes = Data(Self.answer("X-Name: caf\u{1}\r\n").utf8)
        let marker = try #require(bytes.firstRange(of: Data([0x01])))
        bytes.replaceSubrange(marker, with: [0xE9])
        let upstream = try RawHTTPListener(answerBytes: bytes)
        defer { upstream.stop() }
        let bridge = try await LiveBridge(upstream: upstream)
        let response = try #require(try await bridge.get(["/page"]).first)
        await bridge.server.shutdown()
        let field = try #require(response.headers.fields(named: "X-Name").first)
        #expect(Array(field.valueBytes) == Array("caf".utf8) + [0xE9])
    }

    /// RFC 9110 §6.5.1: trailer fields are not header fields. Each trailer
    /// below once reached the client as (or changed) a header field.
    @Test(
        arguments: [
            ("Content-Type: text/html", "content-type", "text/plain"),
            ("Refresh: 0; url=http://evil.test/", "refresh", nil),
            ("Set-Cookie: sid=stolen", "set-cookie", nil),
            ("Cache-Control: no-transform", "cache-control", "private, no-store"),
            ("HTTP/1.1: 200", "cache-control", "private, no-store"),
        ] as [(String, String, String?)])
    func trailersNeverBecomeHeaderFields(trailer: String, field: String, expected: String?) async throws {
        let upstream = try RawHTTPListener(
            answer: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: private, no-store\r\n"
                + "Transfer-Encoding: chunked\r\nTrailer: X-T\r\nConnection: close\r\n\r\n"
                + "2\r\nok\r\n0\r\n\(trailer)\r\n\r\n")
        defer { upstream.stop() }
        let bridge = try await LiveBridge(upstream: upstream)
        let response = try #require(try await bridge.get(["/page"]).first)
        await bridge.server.shutdown()
        #expect(response.status == 200)
        #expect(response.body == Data("ok".utf8))
        #expect(response.headers.values(for: field) == (expected.map { [$0] } ?? []), "\(response.headers)")
    }

    /// A head too large to relay: 502 with a body naming the reason, for
    /// the passthrough and the image path, nothing cached, and the request
    /// pipelined behind it still answered.
    static let oversizedHeads: [String: String] = [
        "one 40 kB field": "X-Big: " + String(repeating: "a", count: 40_000) + "\r\n",
        "10,000 fields": (0..<10_000).map { "X-F\($0): v\r\n" }.joined(),
        "a 40 kB Cache-Control": "Cache-Control: max-age=60, " + String(repeating: "x", count: 40_000) + "\r\n",
    ]

    @Test(arguments: oversizedHeads.keys.sorted())
    func oversizedUpstreamHeadIsA502(_ label: String) async throws {
        let fields = try #require(Self.oversizedHeads[label])
        let upstream = try RawHTTPListener(answer: Self.answer(fields))
        defer { upstream.stop() }
        let bridge = try await LiveBridge(upstream: upstream)
        let responses = try await bridge.get(["/page", "/a.jpg", "/a.jpg", "/__bridge/healthz"])
        await bridge.server.shutdown()
        for response in responses.prefix(3) {
            #expect(response.status == 502, "\(label)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("response head"), "\(label)")
        }
        #expect(responses.last?.status == 200)
        #expect(bridge.cache.count == 0, "\(label)")
        // page once; each image request: variant, then original (no negative cache for a head error)
        #expect(upstream.heads.count >= 4, "\(label): \(upstream.heads.count) upstream requests")
    }

    /// A head exactly at the bound is relayed; one byte more is not.
    @Test func aHeadAtTheBoundPassesAndOneByteMoreDoesNot() async throws {
        let fixed = "Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n"
        let bound = HTTPFieldList.Limits().maxBytes
        // Each field's cost is name + value bytes as HTTPFieldList counts them.
        let fixedFields: HTTPFieldList = ["Content-Type": "text/plain", "Content-Length": "2", "Connection": "close"]
        let padField: HTTPFieldList = ["X-Pad": ""]
        let fixedCost = fixedFields.encodedByteCount
        let padCost = padField.encodedByteCount
        for extra in [0, 1] {
            let pad = String(repeating: "p", count: bound - fixedCost - padCost + extra)
            let upstream = try RawHTTPListener(answer: "HTTP/1.1 200 OK\r\n\(fixed)X-Pad: \(pad)\r\n\r\nok")
            defer { upstream.stop() }
            let bridge = try await LiveBridge(upstream: upstream)
            let response = try #require(try await bridge.get(["/page"]).first)
            await bridge.server.shutdown()
            #expect(response.status == (extra == 0 ? 200 : 502), "\(extra) byte(s) over")
            if extra == 0 { #expect(response.headers["X-Pad"] == pad) }
        }
    }
}
