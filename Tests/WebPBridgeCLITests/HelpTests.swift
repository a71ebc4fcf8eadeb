import TestTraits
import Testing

@testable import WebPBridgeCLI

/// Help text is part of the interface: tested verbatim.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct HelpTests {
    @Test func infoHelpIsExact() async {
        let result = await CapturedIO.run(["info", "--help"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                OVERVIEW: Show an image's format, size, alpha, frames and loop count.

                USAGE: webp-bridge info FILE... [--json]

                ARGUMENTS:
                  FILE                    An image file (WebP, JPEG, PNG, APNG or GIF).

                OPTIONS:
                  --json                  Print one JSON object per file.
                  -h, --help              Show help information.

                The format is read from the bytes, never from the file name. With --json, each file is one
                JSON object on its own line with exactly the keys format, width, height, alpha, frames,
                loopCount and bytes.

                """)
    }

    /// Iterates the tool's own command list, so a command added later is
    /// checked too; and the overview's COMMANDS section lists exactly those.
    @Test func everyCommandHasHelpAndTheOverviewListsThem() async {
        let names = WebPBridge.commands.map { $0.configuration.commandName }
        #expect(!names.isEmpty)
        let overview = await CapturedIO.run(["--help"])
        #expect(overview.status == 0)
        let listed = overview.stdout.split(separator: "\n").drop { $0 != "COMMANDS:" }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.map { String($0.split(separator: " ")[0]) }
        #expect(listed == names)
        for command in names {
            let help = await CapturedIO.run([command, "-h"])
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "), "\(command) -h")
        }
    }

    @Test func noArgumentsAndUnknownCommandsAreUsageErrors() async {
        #expect(await CapturedIO.run([]).status == 2)
        let unknown = await CapturedIO.run(["explode"])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("error: unknown command 'explode'"))
    }
}
