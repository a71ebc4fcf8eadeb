import TestTraits
import Testing

@testable import WebPBridgeCLI

/// Options that several commands take are declared once: the same names,
/// values and help wherever they appear.
@Suite(.timeLimit(.suiteBound))
struct SharedOptionsTests {
    /// How an option reads in help: its names, value and text.
    static func rendered(_ specs: some Collection<OptionSpec>) -> [String] {
        specs.map { "\($0.names) <\($0.valueName ?? "")> \($0.help)" }
    }

    @Test func everyRuleTakingCommandTakesTheRuleOptionsAsDeclaredOnce() throws {
        let shared = Self.rendered(RewriteSource.options)
        let takers = WebPBridge.commands.filter { command in
            command.configuration.options.contains { $0.primaryName == "--config" }
        }
        #expect(Set(takers.map { $0.configuration.commandName }) == ["rewrite", "rewrite-html", "fetch", "proxy"])
        for command in takers {
            let options = command.configuration.options
            let start = try #require(options.firstIndex { $0.primaryName == "--config" })
            let run = options[start..<min(start + shared.count, options.endIndex)]
            #expect(Self.rendered(run) == shared, "\(command.configuration.commandName)")
            #expect(command.configuration.discussion.contains(RewriteSource.presetList), "'see below' lists them")
        }
    }

    @Test func theServerCommandsShareListenAndMemoryBudgetWithTheirOwnDefaults() throws {
        let servers = [(OriginCommand.configuration, 8_081), (ProxyCommand.configuration, 8_080)]
        for (configuration, port) in servers {
            let listen = try #require(configuration.options.first { $0.primaryName == "--listen" })
            let budget = try #require(configuration.options.first { $0.primaryName == "--memory-budget" })
            #expect(listen.help == "Where to listen (default 127.0.0.1:\(port); port 0 picks one).")
            #expect(budget.help.hasPrefix("Memory for caches and request bodies, e.g. "))
        }
        let origin = try ParsedArguments(["--root", "/"], configuration: OriginCommand.configuration)
        #expect(try OriginCommand(parsed: origin).listen == ListenAddress(host: "127.0.0.1", port: 8081))
        let proxy = try ParsedArguments(
            ["--forward", "--allow-host", "a.example"], configuration: ProxyCommand.configuration)
        #expect(try ProxyCommand(parsed: proxy).listen == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(ProxyCommand.configuration.options.contains { $0.help.contains("e.g. 256M (default)") })
        #expect(OriginCommand.configuration.options.contains { $0.help.contains("e.g. 512M (default)") })
    }
}
