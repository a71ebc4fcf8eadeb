import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// `webp-bridge rewrite-html`, in-process with byte-exact standard streams,
/// and once as the built binary on a page larger than its memory.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor) struct RewriteHTMLCommandTests {
    /// Standard input handed out in small reads; standard output kept as bytes.
    final class ByteIO: Sendable {
        private let state = Lock<(input: [UInt8], output: [UInt8], error: String, reads: Int)>(([], [], "", 0))

        init(input: [UInt8]) { state.withLock { $0.input = input } }

        var output: [UInt8] { state.withLock { $0.output } }
        var error: String { state.withLock { $0.error } }
        var reads: Int { state.withLock { $0.reads } }

        func io(inputIsTerminal: Bool) -> CommandIO {
            CommandIO(
                writeOutput: { text in self.state.withLock { $0.output += Array(text.utf8) } },
                writeError: { text in self.state.withLock { $0.error += text } },
                readLine: { nil }, isTerminal: false, inputIsTerminal: inputIsTerminal,
                readBytes: { limit in
                    self.state.withLock { state in
                        guard !state.input.isEmpty else { return nil }
                        // Short reads, as a pipe gives them: at most 1,000 bytes.
                        let count = min(limit, 1_000, state.input.count)
                        defer { state.input.removeFirst(count) }
                        state.reads += 1
                        return Array(state.input.prefix(count))
                    }
                },
                writeBytes: { bytes in self.state.withLock { $0.output += bytes } })
        }
    }

    static let preset = ["--preset", "qiniu", "--host", "img.example.com", "--width", "750"]
    static let suffix = "?imageView2/2/w/750/format/webp/ignore-error/1"

    func run(_ arguments: [String], stdin: [UInt8]? = nil) async -> (status: Int32, output: [UInt8], error: String) {
        let captured = ByteIO(input: stdin ?? [])
        let status = await WebPBridge.run(
            ["rewrite-html"] + arguments, io: captured.io(inputIsTerminal: stdin == nil))
        return (status, captured.output, captured.error)
    }

    @Test func rewritesStandardInputToStandardOutputByteForByte() async {
        // Latin-1 text, CRLF line ends and no final newline stay exactly as they were.
        let page = Array("<p>caf".utf8) + [0xE9] + Array("</p>\r\n<img src=\"/a.jpg\"><img src=\"b.gif\">".utf8)
        let result = await run(Self.preset + ["--base", "https://img.example.com/news/"], stdin: page)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        let expected =
            Array("<p>caf".utf8) + [0xE9]
            + Array("</p>\r\n<img src=\"https://img.example.com/a.jpg\(Self.suffix)\"><img src=\"b.gif\">".utf8)
        #expect(result.output == expected)
    }

    @Test func aPageLargerThanOneReadStreamsThrough() async {
        let card =
            "<div><img src=\"https://img.example.com/p.jpg\" alt=\"x\"><script>'<img src=x.jpg>'</script></div>\n"
        let page = Array(String(repeating: card, count: 2_000).utf8)
        let captured = ByteIO(input: page)
        let status = await WebPBridge.run(["rewrite-html"] + Self.preset, io: captured.io(inputIsTerminal: false))
        #expect(status == 0)
        #expect(captured.reads > 100)
        let expected = card.replacingOccurrences(of: "p.jpg", with: "p.jpg" + Self.suffix)
        #expect(captured.output == Array(String(repeating: expected, count: 2_000).utf8))
    }

    @Test func readsAFileAndWritesTheWebViewScheme() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("page.html")
        try Data(#"<base href="http://img.example.com/x/"><img srcset="a.jpg 1x, b.png 2x">"#.utf8).write(to: file)
        let result = await run(Self.preset + ["--scheme", "my-app", file.path])
        #expect(result.status == 0)
        #expect(
            String(decoding: result.output, as: UTF8.self)
                == #"<base href="http://img.example.com/x/"><img srcset="my-app-http://img.example.com/x/a.jpg"#
                + #" 1x, my-app-http://img.example.com/x/b.png 2x">"#)
    }

    @Test func withoutABaseRelativeURLsAreKept() async {
        let result = await run(Self.preset + ["-"], stdin: Array(#"<img src="/a.jpg">"#.utf8))
        #expect(result.status == 0)
        #expect(result.output == Array(#"<img src="/a.jpg">"#.utf8))
    }

    static let usageErrors: [([String], String)] = [
        ([], "give --config FILE, or --preset NAME with --host HOST"),
        (preset + ["--base", "ftp://x/"], "--base 'ftp://x/' is not an http:// or https:// URL with a host"),
        (preset + ["--base", "/relative"], "is not an http:// or https:// URL"),
        (preset + ["--scheme", "https"], "--scheme: the scheme name 'https' is a scheme the web view handles itself"),
        (preset + ["--scheme", "Bad Name"], "must start with a lower-case letter"),
        (preset + ["a.html", "b.html"], "unexpected argument 'b.html'"),
        (preset, "missing FILE (give a file, or pipe the page on standard input)"),
        (["--preset", "nope", "--host", "img.example.com"], "unknown preset"),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwoWithOneReason(_ arguments: [String], _ message: String) async {
        let result = await run(arguments)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: ") && result.error.contains(message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func unreadableInputExitsOne() async throws {
        let folder = try TemporaryDirectory()
        let missing = await run(Self.preset + [folder.file("missing.html").path])
        #expect(missing.status == 1)
        #expect(missing.error == "error: \(folder.file("missing.html").path): no such file\n")
        let directory = await run(Self.preset + [folder.url.path])
        #expect(directory.status == 1)
        #expect(directory.error == "error: \(folder.url.path): is a directory\n")
    }

    @Test func helpNamesEveryOptionAndTheUsage() async {
        let result = await run(["--help"])
        #expect(result.status == 0)
        let help = String(decoding: result.output, as: UTF8.self)
        #expect(help.hasPrefix("OVERVIEW: Rewrite the image URLs of an HTML page to their CDN's WebP variants.\n"))
        #expect(
            help.contains(
                "USAGE: webp-bridge rewrite-html (--config FILE | --preset NAME --host HOST) [--width W] [--quality Q] "
                    + "[--formats LIST] [--gif] [--base URL] [--scheme NAME] [FILE]\n"))
        for option in ["--config", "--preset", "--host", "--width", "--quality", "--base", "--scheme"] {
            #expect(help.contains("  \(option) <"), "\(option)")
        }
        #expect(help.contains("<meta property=og:image>"))
    }

    @Test(.enabled(if: ChildProcess.webpBridgeBinary != nil && ChildProcess.timeTool != nil))
    func theBinaryStreamsAPageLargerThanItsPeakMemory() async throws {
        let binary = try #require(ChildProcess.webpBridgeBinary)
        let folder = try TemporaryDirectory()
        let file = folder.file("big.html")
        let words = String(repeating: "text ", count: 40)
        let card = "<article><img src=\"/p.jpg\" srcset=\"/p.jpg 1x, /q.jpg 2x\"><p>\(words)</p></article>\n"
        try Data(String(repeating: card, count: 160_000).utf8).write(to: file)  // about 48 MB
        let outcome = try await ChildProcess.runOffThePool(
            binary, ["rewrite-html"] + Self.preset + ["--base", "https://img.example.com/", file.path],
            measuringPeakMemory: true)
        #expect(outcome.exitStatus == 0, "signal \(outcome.signal.map(String.init) ?? "none")")
        let rewritten = card.replacingOccurrences(of: "\"/p.jpg", with: "\"https://img.example.com/p.jpg" + Self.suffix)
            .replacingOccurrences(of: "/q.jpg", with: "https://img.example.com/q.jpg" + Self.suffix)
        #expect(outcome.stdout.count == 160_000 * rewritten.count)
        // Compared as a Bool: a failure must not print 48 MB of output.
        let startsRewritten = outcome.stdout.hasPrefix(rewritten + rewritten)
        #expect(startsRewritten)
        guard let peak = outcome.peakResidentKilobytes else {
            Issue.record("no peak memory measured (exit \(outcome.exitStatus.map(String.init) ?? "none"))")
            return
        }
        #expect(peak < ChildProcess.peakBound(kilobytes: 40 * 1024), "peak RSS \(peak) KB for a 48 MB page")
    }
}
