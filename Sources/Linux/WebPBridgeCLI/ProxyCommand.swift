import BridgeProxy
import Foundation
import HTTPServer
import WebPBridge

/// `webp-bridge proxy`: the out-of-process bridge, in front of one site
/// (`--upstream`) or as a browser's HTTP proxy (`--forward`).
struct ProxyCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Run the bridge proxy: WebP variants to every client, transcoded where WebP cannot be shown.",
        usage: [
            "(--upstream URL | --forward) [--listen HOST:PORT] [--config FILE | --preset NAME --host HOST --width W] "
                + "[--quality Q] [--formats LIST] [--cache-dir DIR] [--allow-host HOST[:PORT]]... "
                + "[--memory-budget SIZE] [--work-budget MP] "
                + "[--rewrite-html] [--save-data] [--client-hints] [--no-transcode-cache]"
        ],
        discussion: """
            Image requests that a rewrite rule matches are fetched as the CDN's variant through one
            shared cache keyed by the URL fetched: the AVIF variant for clients whose Accept names
            image/avif (when the rule's --formats lists avif), the WebP variant for those naming
            image/webp, and the WebP variant transcoded to JPEG, PNG or APNG for the others. A failed
            AVIF variant falls back to WebP, a failed WebP variant to the original. Everything else
            (HTML, CSS, scripts, GIFs, other methods) passes through unchanged.

            --upstream URL   reverse proxy: every request maps onto URL (http or https); targets with
                             dot segments (.., also %2e%2e) get 400, so nothing leaves URL's path.
            --forward        forward proxy for browsers (--proxy-server): only hosts that a rule or
                             --allow-host names are fetched, on port 80 for http and 443 for https
                             unless --allow-host HOST:PORT names another; anything else gets 403;
                             CONNECT gets 501.
            --rewrite-html   pages (200 text/html, not compressed, not no-transform) name the image
                             variants for clients whose images get variants, so those come back
                             through the bridge; every text/html answer then carries Vary.
            --save-data      a client's 'Save-Data: on' is sent on with its image request (to an
                             origin that answers it with fewer bytes, e.g. origin --save-data),
                             kept apart in the cache, and image answers list Save-Data in Vary.
            --client-hints   a client's width hints (Sec-CH-Width, or Sec-CH-Viewport-Width times
                             Sec-CH-DPR, and the legacy names) are sent on with its image request
                             as Sec-CH-Width rounded up to a width bucket (to an origin that sizes by
                             them, e.g. origin --client-hints), kept apart in the cache per bucket,
                             and image answers list the hints in Vary.

            Redirects are followed only within the same rules (the upstream's scheme, host, port
            and path; the allowed hosts and ports), at most 5; any other redirect reaches the
            client as it is, never fetched. Upstream failures give 502 with a fixed text; the
            details (credentials redacted) go to stderr.

            Also serves /__bridge/healthz and /__bridge/metrics (Prometheus text). Prints
            'listening on http://HOST:PORT' first, one line per request, and stops cleanly on
            SIGINT or SIGTERM.

            \(RewriteSource.presetList)
            """,
        options: [
            .option("--upstream", value: "URL", help: "Reverse proxy in front of this site (http:// or https://)."),
            .flag("--forward", help: "Forward proxy for absolute-form requests to allowed hosts."),
            ListenAddress.option(defaultPort: defaultPort),
        ] + RewriteSource.options + [
            .option("--cache-dir", value: "DIR", help: "Keep fetched images on disk here (default: 64 MiB in memory)."),
            .option(
                "--allow-host", value: "HOST[:PORT]",
                help: "With --forward: also pass through this host, on PORT or 80/443 (repeatable).",
                repeatable: true),
            MemorySize.budgetOption(defaultBytes: BridgeProxy.MemoryBudget.defaultTotalBytes),
            WorkBudgetOption.spec,
            .flag(
                "--rewrite-html",
                help: "Rewrite image URLs in HTML pages to their variants for clients whose images get variants."),
            .flag(
                "--save-data",
                help: "Pass a client's 'Save-Data: on' on with its image request; image answers vary on it."),
            .flag(
                "--client-hints",
                help: "Pass a client's width hints on with its image requests, as a bucket; answers vary on them."),
            .flag(
                "--no-transcode-cache",
                help: "Transcode every request afresh instead of keeping finished transcodes (for measuring)."),
        ] + ServerLimitOptions.specs)

    /// The port `--listen` defaults to (on 127.0.0.1).
    static let defaultPort = 8080

    enum Mode: Equatable {
        case reverse(URL)
        case forward
    }

    let mode: Mode
    let listen: ListenAddress
    /// The rewrite rules; `nil` for a forward proxy that only passes named hosts through.
    let rules: RewriteSource?
    let cacheDirectory: String?
    let allowedHosts: [String]
    /// `--memory-budget`: what every cache's bound is a share of.
    let memoryBudget: BridgeProxy.MemoryBudget
    /// `--work-budget`: pixels one transcode may take, in all.
    let workBudgetPixels: Int?
    let serverLimits: ServerLimitOptions
    /// `--rewrite-html`: pages name the variants (``BridgeProxy/Configuration/rewritesHTML``).
    let rewritesHTML: Bool
    /// `--no-transcode-cache`: every transcode made afresh (``BridgeProxy/Configuration/keepsTranscodes``).
    let keepsTranscodes: Bool
    /// `--save-data`: a client's Save-Data is passed on (``BridgeProxy/Configuration/forwardsSaveData``).
    let forwardsSaveData: Bool
    /// `--client-hints`: a client's width hints are passed on (``BridgeProxy/Configuration/forwardsClientHints``).
    let forwardsClientHints: Bool

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(0...0, describing: "")
        switch (parsed.string("--upstream"), parsed.flag("--forward")) {
        case (nil, false): throw UsageError("give --upstream URL (reverse proxy) or --forward (browser proxy)")
        case (_?, true): throw UsageError("--upstream and --forward cannot be combined")
        case (let text?, false):
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
            else {
                throw UsageError("--upstream '\(text)' is not an http:// or https:// URL with a host (and no query)")
            }
            mode = .reverse(url)
        case (nil, true):
            mode = .forward
        }
        listen = try ListenAddress(parsed: parsed, defaultPort: Self.defaultPort)
        rules = try RewriteSource.ifGiven(parsed)
        cacheDirectory = parsed.string("--cache-dir")
        allowedHosts = parsed.strings("--allow-host")
        memoryBudget = try MemorySize.budget(parsed).map { BridgeProxy.MemoryBudget(totalBytes: $0) } ?? .init()
        workBudgetPixels = try WorkBudgetOption.pixels(parsed)
        serverLimits = try ServerLimitOptions(parsed: parsed)
        rewritesHTML = parsed.flag("--rewrite-html")
        keepsTranscodes = !parsed.flag("--no-transcode-cache")
        forwardsSaveData = parsed.flag("--save-data")
        forwardsClientHints = parsed.flag("--client-hints")
        if rewritesHTML, rules == nil {
            throw UsageError("--rewrite-html needs --config or --preset: pages name the variants the rules give")
        }
        if mode != .forward, !allowedHosts.isEmpty {
            throw UsageError("--allow-host goes with --forward; a reverse proxy fetches only its upstream")
        }
        for host in allowedHosts where !BridgeProxy.Configuration.Mode.isAllowedHostEntry(host) {
            throw UsageError(
                "--allow-host '\(host)' is not a host name or HOST:PORT (exact names only, ports 1-65535, no wildcards)"
            )
        }
        if mode == .forward, rules == nil, allowedHosts.isEmpty {
            throw UsageError(
                "--forward needs --config, --preset or --allow-host: the bridge fetches only hosts that are named")
        }
    }

    /// The rewriter from `--config` or `--preset`, or `nil` without rules.
    func makeRewriter() throws -> Rewriter? {
        try rules?.makeRewriter()
    }

    /// The bridge, its pipeline and loaders, as the command runs them.
    func makeBridge(io: CommandIO) throws -> BridgeProxy {
        let rewriter = try makeRewriter()
        let viaToken = "webp-bridge"
        // Without a folder the bytes are kept in memory, so a page's images are not fetched twice.
        var dataCache: any DataCaching = MemoryDataCache(capacity: memoryBudget.dataCacheBytes)
        if let cacheDirectory {
            do {
                dataCache = try DiskCache(folder: URL(fileURLWithPath: cacheDirectory))
            } catch {
                throw CommandFailure("--cache-dir: \(error)")
            }
        }
        let loader = DataLoaders.platformDefault
        let bridgeMode: BridgeProxy.Configuration.Mode
        switch mode {
        case .reverse(let upstream):
            bridgeMode = .reverse(upstream: upstream)
            if let rewriter, let probe = URL(string: upstream.absoluteString + "/probe.jpg"),
                rewriter.rewrite(probe).reason.kind == .noRuleForHost
            {
                io.printError(
                    "warning: no rule names the upstream's host '\(upstream.host ?? "")'; every request passes through")
            }
        case .forward:
            bridgeMode = .forward(allowedHosts: Set(allowedHosts.map { $0.lowercased() }))
        }
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: ViaStampingLoader(wrapping: loader, viaToken: viaToken),
                dataCache: dataCache,
                // The bridge serves encoded bytes; decoded images would only take memory.
                memoryCache: nil, negativeCacheBytes: memoryBudget.failedVariantsBytes,
                // Every hop is routed again through the bridge's own rules.
                redirectPolicy: bridgeMode.redirectPolicy(rewriter: rewriter)))
        var configuration = BridgeProxy.Configuration(
            mode: bridgeMode, pipeline: pipeline, clientPolicy: try rules?.makeClientPolicy(),
            passthroughLoader: loader)
        configuration.viaToken = viaToken
        // What a client's 502 does not say (which URL, why), credentials redacted.
        configuration.log = { line in io.printError("proxy: " + line) }
        configuration.memoryBudget = memoryBudget
        configuration.rewritesHTML = rewritesHTML
        configuration.keepsTranscodes = keepsTranscodes
        configuration.forwardsSaveData = forwardsSaveData
        configuration.forwardsClientHints = forwardsClientHints
        if let workBudgetPixels { configuration.transcoder.limits.maxWorkPixels = workBudgetPixels }
        do {
            return try BridgeProxy(configuration: configuration)
        } catch {
            throw CommandFailure(error.message)
        }
    }

    /// The server's settings: where to listen, CONNECT accepted (the bridge
    /// explains its 501), and request bodies up to 16 MiB (form posts and
    /// uploads pass through).
    var serverConfiguration: HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(host: listen.host, port: listen.port)
        configuration.acceptedMethods.insert(.connect)
        configuration.limits.maxBodyBytes = 16 << 20
        // Request bodies in flight take the budget's share unless --max-body-total says otherwise.
        configuration.limits.maxBodyBytesInFlight = memoryBudget.requestBodyBytes
        serverLimits.apply(to: &configuration.limits)
        return configuration
    }

    func run(io: CommandIO) async throws {
        let bridge = try makeBridge(io: io)
        // As the origin's: formatted and written in batches off the server's threads.
        let log = RequestLogWriter(output: io.writeOutput)
        defer { log.close() }
        let server = HTTPServer(
            configuration: serverConfiguration, handler: bridge, metrics: bridge.metrics,
            requestLog: { log.append($0) })
        try await ServerLifecycle.run(server, io: io, name: "proxy")
    }
}
