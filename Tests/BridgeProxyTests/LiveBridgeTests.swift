import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The bridge on a real socket (127.0.0.1, port 0) in front of the
/// in-process upstream, fetched by `curl` as an independent client.
@Suite(.enabled(if: ExternalTool.available("curl"), "needs curl"), .timeLimit(.suiteBound))
struct LiveBridgeTests {
    @Test func curlThroughTheBridge() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        var configuration = HTTPServer.Configuration()
        configuration.acceptedMethods.insert(.connect)
        configuration.shutdownGracePeriod = .seconds(2)
        let server = HTTPServer(configuration: configuration, handler: bridge)
        let endpoint = try await server.start()
        defer { Task { await server.shutdown() } }
        let curl = ExternalTool.path("curl")!
        let output = fixture.folder.file("delivered.jpg")

        let image = try await ChildProcess.runOffThePool(
            curl,
            [
                "-sS", "--max-time", "60", "-o", output.path, "-D", "-", "-w", "\n%{http_code} %{content_type}",
                "-H", "User-Agent: \(BridgeFixture.webKitUserAgent)", "-H", "Accept: \(BridgeFixture.noWebPAccept)",
                "\(endpoint.url)/photo.jpg",
            ])
        #expect(image.exitStatus == 0, "\(image.stderr)")
        #expect(image.stdout.hasSuffix("200 image/jpeg"), "\(image.stdout)")
        #expect(image.stdout.lowercased().contains("vary: accept"))
        #expect(image.stdout.lowercased().contains("via: 1.1 webp-bridge"))
        #expect(try ImageFormat.sniff(Data(contentsOf: output)) == .jpeg)

        let page = try await ChildProcess.runOffThePool(
            curl, ["-sS", "--max-time", "60", "-o", output.path, "-w", "%{http_code}", "\(endpoint.url)/index.html"])
        #expect(page.stdout == "200")
        #expect(try Data(contentsOf: output) == BridgeFixture.html)

        let redirect = try await ChildProcess.runOffThePool(
            curl,
            ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "\(endpoint.url)/old"])
        #expect(redirect.stdout == "302 \(endpoint.url)/new?from=old", "\(redirect.stdout)")

        // A browser configured with the bridge as its proxy would tunnel HTTPS with CONNECT: 501, clearly.
        let connect = try await ChildProcess.runOffThePool(
            curl,
            [
                "-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_connect}", "-p", "-x", endpoint.url,
                "https://img.test/photo.jpg",
            ])
        #expect(connect.stdout == "501", "\(connect.stdout) \(connect.stderr)")

        let health = try await ChildProcess.runOffThePool(
            curl, ["-sS", "--max-time", "60", "-w", " %{http_code}", "\(endpoint.url)/__bridge/healthz"])
        #expect(health.stdout == "ok\n 200")
        await server.shutdown()
    }
}
