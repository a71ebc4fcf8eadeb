import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// `webp-bridge rewrite`, run in-process with captured standard streams.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor) struct RewriteCommandTests {
    /// Standard streams captured in memory; standard input from a list of lines.
    final class CapturedIO: Sendable {
        private let state = Lock<(output: String, error: String, input: [String])>(("", "", []))

        init(input: [String] = []) { state.withLock { $0.input = input } }

        var output: String { state.withLock { $0.output } }
        var error: String { state.withLock { $0.error } }

        func io(inputIsTerminal: Bool = true) -> CommandIO {
            CommandIO(
                writeOutput: { text in self.state.withLock { $0.output += text } },
                writeError: { text in self.state.withLock { $0.error += text } },
                readLine: { self.state.withLock { $0.input.isEmpty ? nil : $0.input.removeFirst() } },
                isTerminal: false, inputIsTerminal: inputIsTerminal)
        }
    }

    func run(_ arguments: [String], input: [String]? = nil) async -> (status: Int32, output: String, error: String) {
        let captured = CapturedIO(input: input ?? [])
        let status = await WebPBridge.run(["rewrite"] + arguments, io: captured.io(inputIsTerminal: input == nil))
        return (status, captured.output, captured.error)
    }

    @Test func theIssuesExampleWorksWithoutAFile() async {
        let result = await run([
            "--preset", "qiniu-legacy", "--host", "img.host.com", "--width", "750", "http://img.host.com/a/b.jpg",
        ])
        #expect(result.status == 0)
        #expect(result.output == "http://img.host.com/a/b.jpg-WebPiOSW750\thttp://img.host.com/a/b.jpg-WebPiOSW750\n")
        #expect(result.error.isEmpty)
    }

    @Test func printsOneLinePerURLWithTheCacheKey() async {
        let result = await run([
            "--preset", "qiniu", "--host", "img.example.com", "--width", "750", "--quality", "80",
            "HTTP://IMG.example.com:80/a.jpg#top", "http://img.example.com.evil.example/a.jpg",
        ])
        #expect(result.status == 0)
        #expect(
            result.output == """
                http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/q/80/ignore-error/1#top\
                \thttp://img.example.com/a.jpg?imageView2/2/w/750/format/webp/q/80/ignore-error/1
                http://img.example.com.evil.example/a.jpg\thttp://img.example.com.evil.example/a.jpg

                """)
    }

    @Test func explainAddsTheRuleAndReason() async {
        let result = await run([
            "--preset", "imgix", "--host", "img.example.com", "--explain",
            "https://img.example.com/a.jpg", "https://img.example.com/a.jpg?s=abc", "https://other.example/a.jpg",
        ])
        #expect(result.status == 0)
        #expect(
            result.output == """
                https://img.example.com/a.jpg?fm=webp\thttps://img.example.com/a.jpg?fm=webp\trule imgix: rewritten: \
                added fm=webp
                https://img.example.com/a.jpg?s=abc\thttps://img.example.com/a.jpg?s=abc\trule imgix: unchanged \
                (signed): signed URL (s=)
                https://other.example/a.jpg\thttps://other.example/a.jpg\tunchanged (no rule for the host): \
                other.example

                """)
    }

    @Test func unchangedURLsArePrintedAsGiven() async {
        let result = await run(["--preset", "qiniu", "--host", "img.example.com", "http://other.example/图.jpg"])
        #expect(result.output == "http://other.example/图.jpg\thttp://other.example/%E5%9B%BE.jpg\n")
    }

    /// Finding 10 of issue 26: inputs read as a browser reads them, two columns whatever the input.
    @Test func urlsAreReadAsABrowserReadsThem() async {
        let result = await run([
            "--preset", "thumbor", "--host", "img.example.com",
            "http://img.example.com/foo/../../../ton.jpg", "http://a:b@img.example.com\\a.jpg",
            "http://img.example.com/a\t.jpg", "http://other.example/a\tb.jpg", "http://img.example.com/foo/%2e%2.jpg",
        ])
        #expect(result.status == 0)
        #expect(
            result.output == """
                http://img.example.com/unsafe/filters:format(webp)/ton.jpg\
                \thttp://img.example.com/unsafe/filters:format(webp)/ton.jpg
                http://a:b@img.example.com/unsafe/filters:format(webp)/a.jpg\
                \thttp://a:b@img.example.com/unsafe/filters:format(webp)/a.jpg
                http://img.example.com/unsafe/filters:format(webp)/a.jpg\
                \thttp://img.example.com/unsafe/filters:format(webp)/a.jpg
                http://other.example/ab.jpg\thttp://other.example/ab.jpg
                http://img.example.com/foo/%2e%2.jpg\thttp://img.example.com/foo/%2e%2.jpg

                """)
        for line in result.output.split(separator: "\n") {
            #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 2, "\(line)")
        }
    }

    @Test func anOutOfRangePortIsNotAURL() async {
        let result = await run([
            "--preset", "thumbor", "--host", "img.example.com", "http://img.example.com:999999/a.jpg",
        ])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("not a URL: 'http://img.example.com:999999/a.jpg'"))
    }

    @Test func readsURLsFromStandardInputWhenNoneAreGiven() async {
        let result = await run(
            ["--preset", "tencent-ci", "--host", "*.example.com"],
            input: ["https://a.example.com/x.png", "", "  https://b.example.com/y.jpg  "])
        #expect(result.status == 0)
        #expect(
            result.output == """
                https://a.example.com/x.png?imageMogr2/format/webp/ignore-error/1\
                \thttps://a.example.com/x.png?imageMogr2/format/webp/ignore-error/1
                https://b.example.com/y.jpg?imageMogr2/format/webp/ignore-error/1\
                \thttps://b.example.com/y.jpg?imageMogr2/format/webp/ignore-error/1

                """)
    }

    @Test func clientPolicyDecidesWithUserAgentAndAccept() async {
        let url = "http://img.host.com/a.jpg"
        let variant = "http://img.host.com/a.jpg-WebPiOSW750"
        let preset = ["--preset", "qiniu-legacy", "--host", "img.host.com", "--width", "750", "--explain"]
        let webView = await run(preset + ["--user-agent", ClientProfile.iOSWebView.userAgent, url])
        #expect(
            webView.output
                == "\(variant)\t\(variant)\trule qiniu-legacy: rewritten: style suffix -WebPiOSW750;"
                + " client: transcode\n")
        let native = await run(preset + ["--user-agent", ClientProfile.nativeApp.userAgent, url])
        #expect(
            native.output
                == "\(url)\t\(url)\trule qiniu-legacy: rewritten: style suffix -WebPiOSW750;"
                + " client: pass through (User-Agent is not AppleWebKit)\n")
        let accepts = await run(["--preset", "qiniu", "--host", "img.host.com", "--accept", "image/webp,*/*", url])
        #expect(accepts.output.hasSuffix("?imageView2/0/format/webp/ignore-error/1\n"))
    }

    @Test("--formats avif,webp: an AVIF client gets the AVIF variant, a WebP client the WebP one")
    func formatsOption() async throws {
        let url = "http://img.host.com/a.jpg"
        let preset = ["--preset", "qiniu", "--host", "img.host.com", "--formats", "avif,webp"]
        let avif = await run(preset + ["--accept", "image/avif,image/webp,*/*", url])
        #expect(avif.output.hasPrefix("http://img.host.com/a.jpg?imageView2/0/format/avif/ignore-error/1\t"))
        let webP = await run(preset + ["--accept", "image/webp,*/*", url])
        #expect(webP.output.hasPrefix("http://img.host.com/a.jpg?imageView2/0/format/webp/ignore-error/1\t"))

        let folder = try TemporaryDirectory()
        let file = try Self.cloudflareRules(in: folder)
        let overridden = await run([
            "--config", file.path, "--formats", "avif,webp", "--accept", "image/avif,image/webp",
            "https://img.example.com/p.jpg",
        ])
        #expect(overridden.output.hasPrefix("https://img.example.com/cdn-cgi/image/format=avif"), "\(overridden)")
        // A CDN that does not document AVIF is refused, naming the rule.
        let refused = await run(["--preset", "huawei-obs", "--host", "a.com", "--formats", "avif,webp", url])
        #expect(refused.status == 2 && refused.error.contains("formats"), "\(refused.error)")
    }

    /// A configuration file with one Cloudflare rule for `img.example.com`.
    private static func cloudflareRules(in folder: TemporaryDirectory) throws -> URL {
        let file = folder.file("rules.json")
        try Data(#"{"rules": [{"name": "cf", "hosts": ["img.example.com"], "dialect": "cloudflare"}]}"#.utf8).write(
            to: file)
        return file
    }

    @Test func readsAConfigurationFile() async throws {
        let folder = try TemporaryDirectory()
        let file = try Self.cloudflareRules(in: folder)
        let result = await run([
            "--config", file.path, "--width", "640", "--explain", "https://img.example.com/u/p.jpg",
        ])
        #expect(result.status == 0)
        #expect(
            result.output
                == "https://img.example.com/cdn-cgi/image/width=640,format=webp,onerror=redirect/u/p.jpg"
                + "\thttps://img.example.com/cdn-cgi/image/width=640,format=webp,onerror=redirect/u/p.jpg"
                + "\trule cf: rewritten: added /cdn-cgi/image/width=640,format=webp,onerror=redirect\n")
    }

    static let usageErrors: [(arguments: [String], message: String)] = [
        (["http://a.com/x.jpg"], "error: give --config FILE, or --preset NAME with --host HOST"),
        (["--preset", "qiniu", "http://a.com/x.jpg"], "error: --preset needs --host HOST"),
        (["--host", "a.com", "http://a.com/x.jpg"], "error: --host needs --preset NAME"),
        (
            ["--config", "r.json", "--preset", "qiniu", "--host", "a.com"],
            "error: --config and --preset cannot be combined"
        ),
        (
            ["--config", "r.json", "--host", "a.com"],
            "error: --host goes with --preset; a configuration file lists its own hosts"
        ),
        (
            ["--preset", "webp", "--host", "a.com"],
            "error: unknown preset 'webp' (presets: qiniu, qiniu-legacy, tencent-ci, aliyun-oss, huawei-obs,"
                + " baidu-bos, cloudinary, imgix, cloudflare, thumbor)"
        ),
        (["--preset", "template", "--host", "a.com"], "error: unknown preset 'template'"),
        (
            ["--preset", "qiniu-legacy", "--host", "a.com", "x"],
            "error: preset 'qiniu-legacy' needs --width W (the screen width in pixels, e.g. 750)"
        ),
        (
            ["--preset", "qiniu", "--host", "http://a.com/", "x"],
            "error: --host 'http://a.com/' is not a host name or *.domain pattern"
        ),
        (
            ["--preset", "qiniu", "--host", "a.com", "--width", "0"],
            "error: option '--width' must be between 1 and 16383, got 0"
        ),
        (
            ["--preset", "qiniu", "--host", "a.com", "--quality", "high"],
            "error: option '--quality' expects a whole number, got 'high'"
        ),
        (
            ["--preset", "qiniu", "--host", "a.com", "--formats", "avif,jxl"],
            "error: --formats: 'jxl' is not a variant format (avif, webp)"
        ),
        (
            ["--preset", "qiniu", "--host", "a.com", "--formats", "webp,webp"],
            "error: --formats: 'webp' is listed twice"
        ),
        (["--preset", "qiniu", "--host", "a.com", "--explain=yes"], "error: flag '--explain' takes no value"),
        (["--preset", "qiniu", "--host", "a.com", "--bench", "1"], "error: unknown option '--bench'"),
        (["--preset", "qiniu", "--host", "a.com"], "error: missing URL (give URLs as arguments or on standard input)"),
    ]

    @Test(arguments: usageErrors)
    func badFlagsExitWithUsageError(_ arguments: [String], _ message: String) async {
        let result = await run(arguments)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix(message))
        #expect(result.error.contains("See 'webp-bridge rewrite --help'."))
    }

    @Test func badConfigurationFileExitsWithFailure() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("rules.json")
        try Data(
            #"{"rules": [{"name": "cf", "hosts": ["img.example.com"], "dialect": "cloudflare", "quality": 0}]}"#.utf8
        )
        .write(to: file)
        let invalid = await run(["--config", file.path, "https://img.example.com/a.jpg"])
        #expect(invalid.status == 1)
        #expect(invalid.output.isEmpty)
        #expect(
            invalid.error
                == "error: \(file.path): configuration rule 1 (\"cf\"), field 'quality':"
                + " must be between 1 and 100, got 0\n")

        try Data("{not json".utf8).write(to: file)
        let malformed = await run(["--config", file.path, "https://img.example.com/a.jpg"])
        #expect(malformed.status == 1)
        #expect(malformed.error.hasPrefix("error: \(file.path): configuration is not valid JSON"))

        let missing = await run(["--config", folder.file("none.json").path, "https://img.example.com/a.jpg"])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("error: cannot read configuration \(folder.file("none.json").path)"))
    }

    @Test func helpIsStable() async {
        let result = await run(["--help"])
        #expect(result.status == 0)
        #expect(
            result.output == """
                OVERVIEW: Rewrite image URLs to their CDN's WebP (or AVIF) variant and print cache keys.

                USAGE: webp-bridge rewrite (--config FILE | --preset NAME --host HOST) [--width W] [--quality Q] \
                [--formats LIST] [--gif] [--user-agent UA] [--accept ACCEPT] [--explain] [URL...]

                ARGUMENTS:
                  URL                     Image URLs; read from standard input, one a line, when none are given.

                OPTIONS:
                  --config <FILE>         JSON rewrite rules (see docs/rewrite.md).
                  --preset <NAME>         One rule for --host in a CDN's dialect (see below).
                  --host <HOST>           The host the preset applies to (img.example.com, *.example.com).
                  --width <W>             Width to ask for in pixels (1-16383), or auto[:W] from client hints \
                (CDNs that document it); overrides the rules'.
                  --quality <Q>           WebP quality (1-100), or auto[:best|good|eco|low] chosen by the CDN \
                (where documented); overrides the rules'.
                  --formats <LIST>        Variants to offer, preferred first: webp (default), avif,webp, or auto \
                (the CDN chooses by Accept); overrides the rules'.
                  --gif                   The preset's rule converts GIFs to animated WebP too (CDNs that \
                document it).
                  --user-agent <UA>       Decide for a client sending this User-Agent.
                  --accept <ACCEPT>       Decide for a client sending this Accept header.
                  --explain               Add a third column: the rule and why the URL changed or not.
                  -h, --help              Show help information.

                Prints one line per URL: the result URL (the input when unchanged), a tab, and
                the cache key; --explain adds a tab and the rule and reason. With --user-agent
                or --accept, the client policy decides: pass through, serve the AVIF or WebP
                variant, or transcode.

                Presets: qiniu, qiniu-legacy, tencent-ci, aliyun-oss, huawei-obs, baidu-bos, cloudinary, imgix, \
                cloudflare, thumbor.

                """)
    }

    @Test func isListedInTheToolsOverview() async {
        let captured = CapturedIO()
        let status = await WebPBridge.run(["--help"], io: captured.io())
        #expect(status == 0)
        #expect(
            captured.output.contains(
                "  rewrite     Rewrite image URLs to their CDN's WebP (or AVIF) variant and print cache keys.\n"))
    }
}
