import Testing

/// Help text is part of the interface: tested verbatim.
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

    @Test func everyCommandHasHelpAndTheOverviewListsThem() async {
        let overview = await CapturedIO.run(["--help"])
        #expect(overview.status == 0)
        for command in ["convert", "info", "rewrite", "fetch", "origin"] {
            #expect(overview.stdout.contains("\n  \(command) "))
            let help = await CapturedIO.run([command, "-h"])
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "))
        }
    }

    @Test func noArgumentsAndUnknownCommandsAreUsageErrors() async {
        #expect(await CapturedIO.run([]).status == 2)
        let unknown = await CapturedIO.run(["explode"])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("error: unknown command 'explode'"))
    }
}
