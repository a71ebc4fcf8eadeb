#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `webp-bridge` tool: dispatches to a subcommand and maps its outcome to
/// an exit code (0 success, 1 bad input, 2 usage error).
public enum WebPBridge {
    /// Every subcommand, in the order `--help` lists them.
    static let commands: [any BridgeCommand.Type] = [
        ConvertCommand.self,
        InfoCommand.self,
        CompareCommand.self,
        RewriteCommand.self,
        RewriteHTMLCommand.self,
        FetchCommand.self,
        OriginCommand.self,
        ProxyCommand.self,
        DemoCommand.self,
    ]

    /// Runs the tool on the process's arguments and exits.
    public static func main() async -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status = await run(arguments, io: .standard)
        exit(status)
    }

    /// Runs the tool on `arguments` (without the program name) and returns
    /// the exit code. Used by `main()` and by tests.
    public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            if arguments.count > 1,
                let command = commands.first(where: { $0.configuration.commandName == arguments[1] })
            {
                io.writeOutput(HelpFormatter.help(for: command.configuration))
                return ExitCode.success
            }
            io.writeOutput(overview)
            return arguments.isEmpty ? ExitCode.usage : ExitCode.success
        }
        if name == "--version" {
            io.print(version)
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.configuration.commandName == name }) else {
            io.printError("error: unknown command '\(name)'")
            io.printError("Run 'webp-bridge --help' for the list of commands.")
            return ExitCode.usage
        }
        return await run(command, Array(arguments.dropFirst()), io: io)
    }

    private static func run(_ type: any BridgeCommand.Type, _ arguments: [String], io: CommandIO) async -> Int32 {
        let configuration = type.configuration
        let instance: any BridgeCommand
        do {
            let parsed = try ParsedArguments(arguments, configuration: configuration)
            if parsed.helpRequested {
                io.writeOutput(HelpFormatter.help(for: configuration))
                return ExitCode.success
            }
            instance = try type.init(parsed: parsed)
        } catch {
            io.printError("error: \(error.message)")
            io.printError("Usage: webp-bridge \(configuration.commandName) \(configuration.usage[0])")
            io.printError("See 'webp-bridge \(configuration.commandName) --help'.")
            return ExitCode.usage
        }
        do {
            try await instance.run(io: io)
            return ExitCode.success
        } catch let error as UsageError {
            // Some usage errors show only when running (no URL arguments and
            // standard input is a terminal); they are still usage errors.
            io.printError("error: \(error.message)")
            io.printError("Usage: webp-bridge \(configuration.commandName) \(configuration.usage[0])")
            io.printError("See 'webp-bridge \(configuration.commandName) --help'.")
            return ExitCode.usage
        } catch {
            io.printError("error: \(error)")
            return ExitCode.failure
        }
    }

    static let version = "webp-bridge 0.1.0"

    static var overview: String {
        var lines = [
            "OVERVIEW: Cut image traffic with WebP: convert, rewrite, serve and bridge images.",
            "",
            "USAGE: webp-bridge <command> [options]",
            "",
            "COMMANDS:",
        ]
        for command in commands {
            let name = command.configuration.commandName
            lines.append(
                "  " + name + String(repeating: " ", count: max(1, 12 - name.count)) + command.configuration.abstract)
        }
        lines.append("")
        lines.append("See 'webp-bridge <command> --help' for a command's options.")
        return lines.joined(separator: "\n") + "\n"
    }
}
