import Foundation
import URLRewriting

/// `webp-bridge rewrite`: prints each URL's WebP variant and cache key, from
/// a JSON configuration or a named preset, optionally as decided for a client.
struct RewriteCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Rewrite image URLs to their CDN's WebP variant and print cache keys.",
        usage: [
            "(--config FILE | --preset NAME --host HOST) [--width W] [--quality Q] [--user-agent UA] [--accept ACCEPT] [--explain] [URL...]"
        ],
        discussion: """
            Prints one line per URL: the result URL (the input when unchanged), a tab, and
            the cache key; --explain adds a tab and the rule and reason. With --user-agent
            or --accept, the client policy decides: pass through, serve WebP or transcode.

            Presets: \(RewritePreset.all.map(\.name).joined(separator: ", ")).
            """,
        arguments: [("URL", "Image URLs; read from standard input, one a line, when none are given.")],
        options: [
            .option("--config", value: "FILE", help: "JSON rewrite rules (see docs/rewrite.md)."),
            .option("--preset", value: "NAME", help: "One rule for --host in a CDN's dialect (see below)."),
            .option("--host", value: "HOST", help: "The host the preset applies to (img.example.com, *.example.com)."),
            .option("--width", value: "W", help: "Width to ask for in pixels (1-16383); overrides the rules'."),
            .option("--quality", value: "Q", help: "WebP quality (1-100); overrides the rules'."),
            .option("--user-agent", value: "UA", help: "Decide for a client sending this User-Agent."),
            .option("--accept", value: "ACCEPT", help: "Decide for a client sending this Accept header."),
            .flag("--explain", help: "Add a third column: the rule and why the URL changed or not."),
        ])

    enum Source {
        case file(String)
        case preset(RewriteConfiguration)
    }

    let source: Source
    let width: Int?
    let quality: Int?
    let userAgent: String?
    let accept: String?
    let explains: Bool
    let urls: [String]

    init(parsed: ParsedArguments) throws(UsageError) {
        width = try parsed.int("--width", in: 1...16_383)
        quality = try parsed.int("--quality", in: 1...100)
        let config = parsed.string("--config")
        let preset = parsed.string("--preset")
        let host = parsed.string("--host")
        switch (config, preset, host) {
        case (nil, nil, nil):
            throw UsageError("give --config FILE, or --preset NAME with --host HOST")
        case (_?, _?, _):
            throw UsageError("--config and --preset cannot be combined")
        case (_?, nil, _?):
            throw UsageError("--host goes with --preset; a configuration file lists its own hosts")
        case (nil, _?, nil):
            throw UsageError("--preset needs --host HOST")
        case (nil, nil, _?):
            throw UsageError("--host needs --preset NAME")
        case (let file?, nil, nil):
            source = .file(file)
        case (nil, let name?, let host?):
            do {
                source = .preset(
                    try RewritePreset.configuration(named: name, host: host, width: width, quality: quality))
            } catch where error.field == "width" && width == nil {
                throw UsageError("preset '\(name)' needs --width W (the screen width in pixels, e.g. 750)")
            } catch where error.field == "hosts" {
                throw UsageError("--host '\(host)' is not a host name or *.domain pattern")
            } catch {
                throw UsageError(error.description)
            }
        }
        userAgent = parsed.string("--user-agent")
        accept = parsed.string("--accept")
        explains = parsed.flag("--explain")
        urls = parsed.positionals
    }

    func run(io: CommandIO) async throws {
        let rewriter: Rewriter
        do {
            switch source {
            case .file(let path):
                let configuration = try RewriteConfiguration(contentsOf: URL(fileURLWithPath: path))
                rewriter = try Rewriter(configuration: configuration.overriding(width: width, quality: quality))
            case .preset(let configuration):
                rewriter = try Rewriter(configuration: configuration)
            }
        } catch {
            throw CommandFailure(error.description)
        }
        var inputs = urls
        if inputs.isEmpty {
            guard !io.inputIsTerminal else {
                throw UsageError("missing URL (give URLs as arguments or on standard input)")
            }
            while let line = io.readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { inputs.append(trimmed) }
            }
        }
        let decidesForClient = userAgent != nil || accept != nil
        let policy = rewriter.configuration.clientPolicy
        var invalid: [String] = []
        var batch = ""
        for input in inputs {
            guard let url = URL(string: input) else {
                invalid.append(input)
                continue
            }
            let result = rewriter.rewrite(url)
            // Unchanged URLs are printed as given (Foundation may have percent-encoded them).
            var output = result.isRewritten ? result.url.absoluteString : input
            var key = result.cacheKey
            var explanation = (result.ruleName.map { "rule \($0): " } ?? "") + result.reason.description
            if decidesForClient {
                let decision = policy.decision(
                    for: ClientRequest(url: url, userAgent: userAgent, accept: accept), rewrite: result)
                if case .passThrough = decision {
                    output = input
                    key = Rewriter.normalizedCacheKey(for: url)
                } else {
                    output = decision.fetchURL(original: url).absoluteString
                }
                explanation += "; client: \(decision)"
            }
            batch += output + "\t" + key
            if explains { batch += "\t" + explanation }
            batch += "\n"
            if batch.utf8.count > 16_384 {
                io.writeOutput(batch)
                batch = ""
            }
        }
        if !batch.isEmpty { io.writeOutput(batch) }
        if !invalid.isEmpty {
            throw CommandFailure("not a URL: " + invalid.map { "'\($0)'" }.joined(separator: ", "))
        }
    }
}
