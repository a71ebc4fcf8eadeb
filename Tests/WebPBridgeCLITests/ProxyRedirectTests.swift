import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// The bridge `webp-bridge proxy` builds keeps to its rules: forward mode
/// reaches only the ports `--allow-host HOST:PORT` names (or 80/443), and no
/// redirect takes it anywhere a request could not go. Live servers on
/// loopback; the bridge is the command's own, called without a socket.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ProxyRedirectTests {
    static func bridge(_ arguments: [String]) throws -> BridgeProxy {
        let parsed = try ParsedArguments(arguments, configuration: ProxyCommand.configuration)
        let silent = CommandIO(
            writeOutput: { _ in }, writeError: { _ in }, readLine: { nil }, isTerminal: false, inputIsTerminal: true)
        return try ProxyCommand(parsed: parsed).makeBridge(io: silent)
    }

    @Test(arguments: ["forward", "reverse"])
    func redirectsOutsideTheRulesReachTheClientUnfollowed(mode: String) async throws {
        try await LoopbackServer.withRedirectElsewhere { upstream, elsewhere in
            let rules = ["--preset", "qiniu", "--host", "127.0.0.1"]
            let bridge =
                mode == "forward"
                ? try Self.bridge(["--forward", "--allow-host", "127.0.0.1:\(upstream.port)"] + rules)
                : try Self.bridge(["--upstream", upstream.baseURL.absoluteString] + rules)
            let prefix = mode == "forward" ? upstream.baseURL.absoluteString : ""
            for target in ["/a.jpg", "/page.html"] {
                let response = await bridge.handle(
                    HTTPRequest(target: prefix + target, headers: ["User-Agent": ClientProfile.iOSWebView.userAgent]))
                #expect(response.status == .found, "\(target): \(response.status)")
            }
            #expect(elsewhere.requestCount == 0, "the host no rule names was contacted")
            if mode == "forward" {
                let otherPort = await bridge.handle(HTTPRequest(target: "http://127.0.0.1:\(elsewhere.port)/a.jpg"))
                #expect(otherPort.status == .forbidden, "a port --allow-host does not name")
            }
        }
    }
}
