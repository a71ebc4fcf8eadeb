import Foundation
import WebPBridge

/// `webp-bridge rewrite`: prints each URL's WebP variant and cache key, from
/// a JSON configuration or a named preset, optionally as decided for a client.
struct RewriteCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Rewrite image URLs to their CDN's WebP (or AVIF) variant and print cache keys.",
        usage: [RewriteSource.requiredUsage + " [--user-agent UA] [--accept ACCEPT] [--explain] [URL...]"],
        discussion: """
            Prints one line per URL: the result URL (the input when unchanged), a tab, and
            the cache key; --explain adds a tab and the rule and reason. With --user-agent
            or --accept, the client policy decides: pass through, serve the AVIF or WebP
            variant, or transcode.

            \(RewriteSource.presetList)
            """,
        arguments: [("URL", "Image URLs; read from standard input, one a line, when none are given.")],
        options: RewriteSource.options + [
            .option("--user-agent", value: "UA", help: "Decide for a client sending this User-Agent."),
            .option("--accept", value: "ACCEPT", help: "Decide for a client sending this Accept header."),
            .flag("--explain", help: "Add a third column: the rule and why the URL changed or not."),
        ])

    let source: RewriteSource
    let userAgent: String?
    let accept: String?
    let explains: Bool
    let urls: [String]

    init(parsed: ParsedArguments) throws(UsageError) {
        source = try RewriteSource(parsed: parsed)
        userAgent = parsed.string("--user-agent")
        accept = parsed.string("--accept")
        explains = parsed.flag("--explain")
        urls = parsed.positionals
    }

    func run(io: CommandIO) async throws {
        let rewriter = try source.makeRewriter()
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
        let policy = try source.makeClientPolicy()
        var invalid: [String] = []
        var batch = ""
        for input in inputs {
            // Read as a browser reads it (WHATWG): `http://a:b@host\a.jpg` is a URL, a tab is dropped.
            guard let result = rewriter.rewrite(input, relativeTo: nil) else {
                invalid.append(input)
                continue
            }
            // The input as Foundation holds it, for the client policy.
            let url = (try? WHATWGURL(input)).flatMap { URL(string: $0.href) } ?? result.url
            // Unchanged URLs are printed as given, less the tabs and newlines a
            // browser drops too, so that the columns stay two (or three).
            let given = String(input.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
            var output = result.isRewritten ? result.url.absoluteString : given
            var key = result.cacheKey
            var explanation = (result.ruleName.map { "rule \($0): " } ?? "") + result.reason.description
            if decidesForClient {
                let decision = policy.decision(
                    for: ClientRequest(url: url, userAgent: userAgent, accept: accept), rewrite: result)
                if case .passThrough = decision {
                    output = given
                    key = Rewriter.normalizedCacheKey(for: input, relativeTo: nil) ?? key
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
