package import BridgeProxy
package import Foundation
package import HTTPServer
import ImageOrigin

/// The demo's servers on loopback: the origin (site and images), and the
/// bridge in front of it — in reverse mode (open its URL), in forward mode
/// (a browser's `--proxy-server`), and once more in reverse mode for each
/// kind of client the demo measures, so each starts with an empty cache as
/// a reader's device does. Stopped together by ``stop()``.
package struct DemoServers: Sendable {
    /// Makes a bridge from `webp-bridge proxy` arguments: the handler, and
    /// the configuration of the server to run it on. The CLI passes its
    /// `proxy` command's, so the demo's bridges are the ones users run.
    /// `log` receives what the command would write to standard error.
    package typealias BridgeMaker =
        @Sendable (
            _ arguments: [String], _ log: (@Sendable (String) -> Void)?
        ) throws -> (bridge: BridgeProxy, server: HTTPServer.Configuration)

    let origin: HTTPServer
    /// The origin's address, `http://127.0.0.1:PORT`.
    package let originURL: URL
    let bridge: HTTPServer
    /// The reverse bridge's address.
    package let bridgeURL: URL
    let forwardBridge: HTTPServer
    /// The forward bridge's address, for a browser's `--proxy-server`.
    package let forwardBridgeURL: URL
    let tunedOrigin: HTTPServer
    /// The tuned origin's address (``DemoSiteOrigin/tunedConfiguration(root:target:)``),
    /// which the tuned profiles load their images from directly.
    package let tunedOriginURL: URL
    let clientBridges: [HTTPServer]
    /// One reverse bridge per measured client, each with its own cache:
    /// what a client's images cost the network is then not hidden by
    /// another client's cache hit.
    package let clientBridgeURLs: [URL]

    /// Starts the origin on the site in `site`, then both bridges in front of it.
    ///
    /// - Parameters:
    ///   - width: The screen width the bridges ask variants for.
    ///   - clients: How many extra reverse bridges to start, one per measured client.
    ///   - tunedTarget: The tuned origin's `--quality auto` target.
    ///   - makeBridge: Turns `webp-bridge proxy` arguments into a bridge.
    ///   - requestLog: called for every request any server finishes.
    /// - Throws: ``DemoFailure`` when a server does not start; what
    ///   `makeBridge` throws.
    package static func start(
        site: URL, width: Int, clients: Int = DemoClient.Profile.bridged.count,
        tunedTarget: Double = DemoSiteOrigin.tunedTarget, makeBridge: BridgeMaker,
        requestLog: (@Sendable (String) -> Void)? = nil
    ) async throws -> DemoServers {
        let (origin, originURL) = try await startOrigin(
            try DemoSiteOrigin.make(root: site), log: requestLog, name: "origin")
        var started: [HTTPServer] = [origin]
        do {
            let (tunedOrigin, tunedOriginURL) = try await startOrigin(
                try ImageOrigin(configuration: DemoSiteOrigin.tunedConfiguration(root: site, target: tunedTarget)),
                log: requestLog, name: "tuned origin")
            started.append(tunedOrigin)
            let host = originURL.host ?? "127.0.0.1"
            let rules = ["--preset", "qiniu-legacy", "--host", host, "--width", String(width)]
            let reverse = try await startBridge(
                ["--upstream", originURL.absoluteString] + rules, makeBridge: makeBridge, log: requestLog,
                name: "bridge")
            started.append(reverse.server)
            // The rule names the origin's host; its port is not 80, so it is named too.
            let originHost = "\(host):\(originURL.port ?? 80)"
            let forward = try await startBridge(
                ["--forward", "--allow-host", originHost] + rules, makeBridge: makeBridge, log: requestLog,
                name: "forward bridge")
            started.append(forward.server)
            // The measured clients' bridges ask for variants in a query (`imageView2/…/format/avif`, then
            // `…/format/webp`) and tell clients apart by `Accept` (the default policy); GIFs too
            // (`--gif`: Qiniu answers `format/webp` for a GIF with an animated WebP).
            let clientRules = [
                "--preset", "qiniu", "--host", host, "--width", String(width), "--formats", "avif,webp", "--gif",
            ]
            var clientBridges: [(server: HTTPServer, url: URL)] = []
            for client in 0..<clients {
                let bridge = try await startBridge(
                    ["--upstream", originURL.absoluteString] + clientRules, makeBridge: makeBridge, log: requestLog,
                    name: "client bridge \(client + 1)")
                started.append(bridge.server)
                clientBridges.append(bridge)
            }
            return DemoServers(
                origin: origin, originURL: originURL, bridge: reverse.server, bridgeURL: reverse.url,
                forwardBridge: forward.server, forwardBridgeURL: forward.url, tunedOrigin: tunedOrigin,
                tunedOriginURL: tunedOriginURL,
                clientBridges: clientBridges.map(\.server),
                clientBridgeURLs: clientBridges.map(\.url))
        } catch {
            for server in started.reversed() { await server.shutdown() }
            throw error
        }
    }

    /// Starts `handler` on 127.0.0.1 with a free port.
    static func startOrigin(
        _ handler: ImageOrigin, log: (@Sendable (String) -> Void)?, name: String
    ) async throws -> (server: HTTPServer, url: URL) {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0), handler: handler, requestLog: prefixed(log, name))
        do {
            return (server, URL(string: try await server.start().url)!)
        } catch {
            throw DemoFailure("cannot start the \(name): \(error)")
        }
    }

    /// Starts a bridge exactly as `webp-bridge proxy ARGUMENTS --listen 127.0.0.1:0` would.
    static func startBridge(
        _ arguments: [String], makeBridge: BridgeMaker, log: (@Sendable (String) -> Void)?, name: String
    ) async throws -> (server: HTTPServer, url: URL) {
        let made = try makeBridge(arguments + ["--listen", "127.0.0.1:0"], log)
        let server = HTTPServer(
            configuration: made.server, handler: made.bridge, metrics: made.bridge.metrics,
            requestLog: prefixed(log, name))
        do {
            return (server, URL(string: try await server.start().url)!)
        } catch {
            throw DemoFailure("cannot start the \(name): \(error)")
        }
    }

    /// Stops the bridges, then the origin, letting requests in flight finish.
    package func stop() async {
        await bridge.shutdown()
        await forwardBridge.shutdown()
        for bridge in clientBridges { await bridge.shutdown() }
        await origin.shutdown()
        await tunedOrigin.shutdown()
    }
}

/// A request log that writes `name: <entry>` lines to `log`, or none.
private func prefixed(
    _ log: (@Sendable (String) -> Void)?, _ name: String
) -> (@Sendable (HTTPRequestLog) -> Void)? {
    guard let log else { return nil }
    return { entry in log("\(name): \(entry)") }
}
