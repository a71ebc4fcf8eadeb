import Foundation
import TestSupport
import TestTraits
import Testing

/// `webp-bridge proxy`: validation before anything runs, exit codes, and
/// the real binary serving, logging and stopping on SIGTERM.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ProxyCommandTests {
    @Test(arguments: [
        (["proxy"], "give --upstream URL (reverse proxy) or --forward"),
        (["proxy", "--upstream", "http://a.test", "--forward"], "--upstream and --forward cannot be combined"),
        (["proxy", "--upstream", "ftp://a.test"], "is not an http:// or https:// URL"),
        (["proxy", "--upstream", "not a url"], "is not an http:// or https:// URL"),
        (["proxy", "--upstream", "http://a.test", "--preset", "qiniu"], "--preset needs --host HOST"),
        (["proxy", "--upstream", "http://a.test", "--host", "a.test"], "--host needs --preset NAME"),
        (["proxy", "--upstream", "http://a.test", "--preset", "qiniu-legacy", "--host", "a.test"], "needs --width W"),
        (["proxy", "--upstream", "http://a.test", "--preset", "nope", "--host", "a.test"], "nope"),
        (["proxy", "--upstream", "http://a.test", "--config", "x.json", "--preset", "qiniu"], "cannot be combined"),
        (["proxy", "--upstream", "http://a.test", "--allow-host", "b.test"], "--allow-host goes with --forward"),
        (["proxy", "--forward"], "--forward needs --config, --preset or --allow-host"),
        (["proxy", "--forward", "--allow-host", "b.test:0"], "is not a host name"),
        (["proxy", "--forward", "--allow-host", "b.test:65536"], "is not a host name"),
        (["proxy", "--forward", "--allow-host", "b.test:http"], "is not a host name"),
        (["proxy", "--forward", "--allow-host", "user@b.test"], "is not a host name"),
        (["proxy", "--forward", "--allow-host", "*.b.test"], "is not a host name"),
        (["proxy", "--upstream", "http://a.test", "--listen", "8080"], "expects HOST:PORT"),
        (["proxy", "--upstream", "http://a.test", "--memory-budget", "lots"], "expects a size such as 256M"),
        (["proxy", "--upstream", "http://a.test", "--memory-budget", "1M"], "must be at least 16M"),
        (["proxy", "--upstream", "http://a.test", "--rewrite-html"], "--rewrite-html needs --config or --preset"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) async {
        let result = await CapturedIO.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aBadConfigFileOrCacheFolderExitsOne() async throws {
        let folder = try TemporaryDirectory()
        try Data("{not json".utf8).write(to: folder.file("rules.json"))
        let badConfig = await CapturedIO.run(
            ["proxy", "--upstream", "http://a.test", "--config", folder.file("rules.json").path])
        #expect(badConfig.status == 1)
        #expect(badConfig.stderr.contains("rules.json"), "\(badConfig.stderr)")

        try Data("a file".utf8).write(to: folder.file("occupied"))
        let badCache = await CapturedIO.run(
            ["proxy", "--upstream", "http://a.test", "--cache-dir", folder.file("occupied").path + "/sub"])
        #expect(badCache.status == 1)
        #expect(badCache.stderr.contains("--cache-dir"), "\(badCache.stderr)")
    }

    @Test func helpListsTheModes() async {
        let result = await CapturedIO.run(["proxy", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--upstream URL"))
        #expect(result.stdout.contains("--allow-host HOST[:PORT]"))
        #expect(result.stdout.contains("80 for http"))
        #expect(
            result.stdout.contains(
                "  --rewrite-html          Rewrite image URLs in HTML pages to their variants for clients whose images "
                    + "get variants."))
        #expect(result.stdout.contains("[--rewrite-html]"))
        let overview = await CapturedIO.run(["--help"])
        #expect(overview.stdout.contains("  proxy "))
    }

    /// The real binary: `listening on` first, one line per request,
    /// a clean stop on SIGTERM.
    @Test(
        .enabled(
            if: ChildProcess.webpBridgeBinary != nil && ExternalTool.available("curl"), "needs the binary and curl"))
    func servesLogsAndStopsOnSIGTERM() async throws {
        let process = Process()
        process.executableURL = ChildProcess.webpBridgeBinary!
        // The upstream is a closed port: the bridge still starts, and answers 502.
        process.arguments = ["proxy", "--upstream", "http://127.0.0.1:9", "--listen", "127.0.0.1:0"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let reader = output.fileHandleForReading
        // Pipe reads and the wait for exit block: on a thread of their own.
        let text = try await reader.readThroughFirstLine()
        let firstLine = String(text.split(separator: "\n").first ?? "")
        #expect(firstLine.hasPrefix("listening on http://127.0.0.1:"))
        let base = String(firstLine.dropFirst("listening on ".count))

        let curl = ExternalTool.path("curl")!
        let health = try await ChildProcess.runOffThePool(
            curl, ["-sS", "--max-time", "60", "\(base)/__bridge/healthz"])
        #expect(health.stdout == "ok\n")
        let dead = try await ChildProcess.runOffThePool(
            curl, ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/index.html"])
        #expect(dead.stdout == "502")

        process.terminate()
        let errorReader = errors.fileHandleForReading
        let (rest, stderr) = try await blocking {
            process.waitUntilExit()
            return (
                String(decoding: reader.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: errorReader.readDataToEndOfFile(), as: UTF8.self)
            )
        }
        #expect(process.terminationStatus == 0)
        let lines = (text + rest).split(separator: "\n")
        #expect(lines.contains { $0.contains("GET /__bridge/healthz 200") }, "\(lines)")
        #expect(lines.contains { $0.contains("GET /index.html 502") }, "\(lines)")
        #expect(stderr.contains("proxy stopped"), "\(stderr)")
    }
}
