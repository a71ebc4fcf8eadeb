import Foundation
import HTTPServer
import ImageOrigin
import TestTraits
import Testing

@testable import WebPBridgeCLI

/// `--max-connections`, `--max-connections-per-client`, `--max-body-total` and `--max-head-memory`,
/// which `origin` and `proxy` share.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor) struct ServerLimitOptionsTests {
    @Test(arguments: [
        (["origin", "--root", "/tmp", "--max-connections", "0"], "option '--max-connections' must be between 1"),
        (["origin", "--root", "/tmp", "--max-connections-per-client", "-1"], "must be between 0"),
        (["proxy", "--upstream", "http://a.test", "--max-body-total", "x"], "expects a whole number"),
        (["origin", "--root", "/tmp", "--max-head-memory", "2"], "option '--max-head-memory' must be between 4"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) async {
        let result = await CapturedIO.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func flagsReachTheServerLimitsOfBothCommands() throws {
        let flags = [
            "--max-connections", "500", "--max-connections-per-client", "0", "--max-body-total", "8",
            "--max-head-memory", "24",
        ]
        let proxy = try ProxyCommand(
            parsed: ParsedArguments(["--upstream", "http://a.test"] + flags, configuration: ProxyCommand.configuration))
        let origin = try OriginCommand(
            parsed: ParsedArguments(["--root", "/tmp"] + flags, configuration: OriginCommand.configuration))
        for limits in [proxy.serverConfiguration.limits, origin.serverConfiguration.limits] {
            #expect(limits.maxConnections == 500)
            #expect(limits.maxConnectionsPerClient == nil)
            #expect(limits.maxBodyBytesInFlight == 8 << 20)
            #expect(limits.maxHeaderBytes == 24 << 10)
        }
    }

    @Test func defaultsAreTheServersDefaultsAndTheBudgetsBodyShare() throws {
        let origin = try OriginCommand(
            parsed: ParsedArguments(["--root", "/tmp"], configuration: OriginCommand.configuration))
        let proxy = try ProxyCommand(
            parsed: ParsedArguments(
                ["--upstream", "http://a.test", "--memory-budget", "64M"], configuration: ProxyCommand.configuration))
        let defaults = HTTPServer.Configuration.Limits()
        #expect(origin.serverConfiguration.limits.maxConnections == defaults.maxConnections)
        #expect(origin.serverConfiguration.limits.maxConnectionsPerClient == defaults.maxConnectionsPerClient)
        // Request bodies in flight are the memory budget's share unless --max-body-total says otherwise.
        #expect(origin.serverConfiguration.limits.maxBodyBytesInFlight == origin.memoryBudget.requestBodyBytes)
        #expect(proxy.serverConfiguration.limits.maxBodyBytesInFlight == 16 << 20, "a quarter of 64M")
        // The proxy faces browsers and their cookies; the origin, CDNs and bridges.
        #expect(proxy.serverConfiguration.limits.maxHeaderBytes == defaults.maxHeaderBytes)
        #expect(origin.serverConfiguration.limits.maxHeaderBytes == 16 << 10)
    }

    @Test(arguments: ["origin", "proxy"]) func helpListsTheLimits(command: String) async {
        let help = await CapturedIO.run([command, "--help"])
        for flag in [
            "--max-connections <N>", "--max-connections-per-client <N>", "--max-body-total <MIB>",
            "--max-head-memory <KIB>",
        ] {
            #expect(help.stdout.contains(flag), "\(command) --help lacks \(flag)")
        }
    }
}
