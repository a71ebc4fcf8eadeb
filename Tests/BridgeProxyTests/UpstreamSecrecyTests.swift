import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// What a client learns when the upstream fails: that it failed, in fixed
/// words — never the upstream's credentials, its address, the loader's
/// diagnostics, or which kind of network failure it was (a port scanner's
/// signal). The details go to the bridge's log, credentials redacted.
@Suite(.timeLimit(.suiteBound))
struct UpstreamSecrecyTests {
    /// Lines the bridge logged.
    final class LogLines: Sendable {
        private let lines = Lock<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A port on 127.0.0.1 where nothing listens: a server's, after it stopped.
    static func deadPort() async throws -> Int {
        let server = try await LoopbackServer.start(ClosureHTTPHandler { _ in .text(.ok, "gone") })
        let port = server.port
        await server.shutdown()
        return port
    }

    @Test func credentialsAndInternalsNeverReachTheClient() async throws {
        let port = try await Self.deadPort()
        let upstream = URL(string: "http://bridge-user:s3cret-pw@127.0.0.1:\(port)/base")!
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: upstream)
        let rewriter = try Rewriter(
            configuration: RewritePreset.configuration(named: "qiniu", host: "127.0.0.1", width: 750))
        let loader = DefaultDataLoader()  // not the shared one: its pooled connections outlive other tests' servers
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: loader, memoryCache: nil, requestTimeout: .seconds(60),
                redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
        var configuration = BridgeProxy.Configuration(
            mode: mode, pipeline: pipeline, passthroughLoader: loader, limits: .init(upstreamTimeout: .seconds(60)))
        let log = LogLines()
        configuration.log = { log.append($0) }
        let bridge = try BridgeProxy(configuration: configuration)
        for request in [
            HTTPRequest.webView("/photo.jpg"), .webView("/index.html"),
            HTTPRequest(method: .post, target: "/echo", body: Data("a=1".utf8)),
            HTTPRequest(target: "http://elsewhere.test/x"),
        ] {
            let response = await bridge.handle(request)
            let body = response.bodyText
            #expect(response.status.code >= 400, "\(request.target): \(response.status)")
            for secret in ["s3cret", "bridge-user", "127.0.0.1", String(port), "/base", "curl", "onnect"] {
                #expect(!body.contains(secret), "\(request.target): '\(secret)' in \(body)")
            }
        }
        let lines = log.all
        #expect(lines.count >= 3, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("s3cret") && !$0.contains("bridge-user") }, "\(lines)")
        #expect(lines.contains { $0.contains("***@127.0.0.1:\(port)") }, "\(lines)")
    }

    @Test func everyNetworkFailureReadsTheSame() async throws {
        var bodies: Set<String> = []
        for kind in [DataLoadingError.Kind.cannotConnect, .timedOut, .networkFailure, .unsupportedURL] {
            let fixture = try BridgeFixture()
            fixture.upstream.inject(.fail(kind))
            let bridge = try fixture.forwardBridge()
            for target in ["http://img.test/photo.jpg", "http://static.test/style.css"] {
                let response = await bridge.handle(.webView(target))
                #expect(response.status == .badGateway)
                bodies.insert(response.bodyText)
            }
        }
        #expect(bodies.count == 1, "\(bodies)")
    }

    @Test func logLinesEscapeControlBytes() async throws {
        let fixture = try BridgeFixture()
        fixture.upstream.inject(.fail(.networkFailure))
        let log = LogLines()
        let bridge = try fixture.bridge { $0.log = { log.append($0) } }
        _ = await bridge.handle(HTTPRequest(target: "/index.html?a=%0d%0aX:%1b"))
        let lines = log.all
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { !$0.contains(where: { $0.asciiValue.map { $0 < 0x20 } == true }) })
    }
}
