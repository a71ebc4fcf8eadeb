import Foundation
import HTTPServer

/// The demo's two servers on loopback: the origin (site and images) and the
/// bridge in front of it. Stopped together by ``stop()``.
struct DemoServers: Sendable {
    let origin: HTTPServer
    let originURL: URL
    /// The bridge's own server, or `nil` while the stand-in is in use.
    let bridge: HTTPServer?
    let bridgeURL: URL
    /// Whether ``bridgeURL`` is the stand-in (the origin itself) rather than a bridge.
    let bridgeIsStandIn: Bool

    /// Starts the origin on the site in `site`, then the bridge in front of it.
    ///
    /// - Parameter requestLog: called for every request either server finishes.
    static func start(
        site: URL, width: Int, requestLog: (@Sendable (String) -> Void)? = nil
    ) async throws -> DemoServers {
        let handler = try DemoSiteOrigin(root: site)
        var originLog: (@Sendable (HTTPRequestLog) -> Void)?
        if let requestLog {
            originLog = { entry in requestLog("origin: \(entry)") }
        }
        let origin = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0), handler: handler, requestLog: originLog)
        let originURL: URL
        do {
            originURL = URL(string: try await origin.start().url)!
        } catch {
            throw CommandFailure("cannot start the origin: \(error)")
        }
        do {
            let bridge = try await startBridge(upstream: originURL, width: width, requestLog: requestLog)
            return DemoServers(
                origin: origin, originURL: originURL, bridge: bridge.server, bridgeURL: bridge.url,
                bridgeIsStandIn: bridge.server == nil)
        } catch {
            await origin.shutdown()
            throw error
        }
    }

    /// Starts the bridge in front of `upstream`, as
    /// `webp-bridge proxy --upstream UPSTREAM --preset qiniu-legacy --host 127.0.0.1 --width WIDTH`
    /// would, on 127.0.0.1 and a free port.
    ///
    /// STAND-IN: the bridge proxy is not on this branch yet, so this returns
    /// the upstream itself (no server of its own). The origin then serves
    /// the WebView its originals (its `Accept` has no WebP), so the demo
    /// shows 0% saved until the proxy is plugged in here: build a
    /// `BridgeProxy` in reverse mode on `upstream` with the `qiniu-legacy`
    /// preset at `width`, serve it with an `HTTPServer` on 127.0.0.1:0, and
    /// return that server and its URL.
    static func startBridge(
        upstream: URL, width: Int, requestLog: (@Sendable (String) -> Void)?
    ) async throws -> (server: HTTPServer?, url: URL) {
        (nil, upstream)
    }

    /// Stops the bridge, then the origin, letting requests in flight finish.
    func stop() async {
        if let bridge { await bridge.shutdown() }
        await origin.shutdown()
    }
}
