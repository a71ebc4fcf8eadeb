import BridgeProxy
import Foundation
import HTTPServer

/// The demo's servers on loopback: the origin (site and images), and the
/// bridge in front of it twice — in reverse mode (open its URL) and in
/// forward mode (a browser's `--proxy-server`). Stopped together by ``stop()``.
struct DemoServers: Sendable {
    let origin: HTTPServer
    let originURL: URL
    let bridge: HTTPServer
    let bridgeURL: URL
    let forwardBridge: HTTPServer
    let forwardBridgeURL: URL

    /// Starts the origin on the site in `site`, then both bridges in front of it.
    ///
    /// - Parameter requestLog: called for every request any server finishes.
    static func start(
        site: URL, width: Int, requestLog: (@Sendable (String) -> Void)? = nil
    ) async throws -> DemoServers {
        let handler = try DemoSiteOrigin(root: site)
        let origin = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0), handler: handler,
            requestLog: prefixed(requestLog, "origin"))
        let originURL: URL
        do {
            originURL = URL(string: try await origin.start().url)!
        } catch {
            throw CommandFailure("cannot start the origin: \(error)")
        }
        var started: [HTTPServer] = [origin]
        do {
            let host = originURL.host ?? "127.0.0.1"
            let rules = ["--preset", "qiniu-legacy", "--host", host, "--width", String(width)]
            let reverse = try await startBridge(
                ["--upstream", originURL.absoluteString] + rules, log: requestLog, name: "bridge")
            started.append(reverse.server)
            // The rule names the origin's host; its port is not 80, so it is named too.
            let originHost = "\(host):\(originURL.port ?? 80)"
            let forward = try await startBridge(
                ["--forward", "--allow-host", originHost] + rules, log: requestLog, name: "forward bridge")
            started.append(forward.server)
            return DemoServers(
                origin: origin, originURL: originURL, bridge: reverse.server, bridgeURL: reverse.url,
                forwardBridge: forward.server, forwardBridgeURL: forward.url)
        } catch {
            for server in started.reversed() { await server.shutdown() }
            throw error
        }
    }

    /// Starts a bridge exactly as `webp-bridge proxy ARGUMENTS --listen 127.0.0.1:0` would.
    static func startBridge(
        _ arguments: [String], log: (@Sendable (String) -> Void)?, name: String
    ) async throws -> (server: HTTPServer, url: URL) {
        let parsed = try ParsedArguments(
            arguments + ["--listen", "127.0.0.1:0"], configuration: ProxyCommand.configuration)
        let command = try ProxyCommand(parsed: parsed)
        let silent = CommandIO(
            writeOutput: { _ in }, writeError: { text in log?(text) }, readLine: { nil }, isTerminal: false,
            inputIsTerminal: true)
        let bridge = try command.makeBridge(io: silent)
        let server = HTTPServer(
            configuration: command.serverConfiguration, handler: bridge, metrics: bridge.metrics,
            requestLog: prefixed(log, name))
        do {
            return (server, URL(string: try await server.start().url)!)
        } catch {
            throw CommandFailure("cannot start the \(name): \(error)")
        }
    }

    /// Stops the bridges, then the origin, letting requests in flight finish.
    func stop() async {
        await bridge.shutdown()
        await forwardBridge.shutdown()
        await origin.shutdown()
    }
}

/// A request log that writes `name: <entry>` lines to `log`, or none.
private func prefixed(
    _ log: (@Sendable (String) -> Void)?, _ name: String
) -> (@Sendable (HTTPRequestLog) -> Void)? {
    guard let log else { return nil }
    return { entry in log("\(name): \(entry)") }
}
