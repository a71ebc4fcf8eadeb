import Foundation
import HTTPServer
import ImageOrigin
import WebPBridge

/// `webp-bridge origin`: serve a folder of images with Qiniu's grammar.
struct OriginCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "origin",
        abstract: "Serve a folder: images with Qiniu's imageView2/imageMogr2 grammar, other files as they are.",
        usage: [
            "--root DIR [--listen HOST:PORT] [--styles FILE] [--auto-webp] [--auto-format]"
                + " [--avif-sequences] [--client-hints] [--save-data]"
                + " [--quality Q|auto[:TARGET]] [--webp-method M] [--memory-budget SIZE] [--work-budget MP]"
        ],
        discussion: """
            Serves GET and HEAD for the files under DIR; '?imageView2/<mode>/w/<W>/h/<H>/format/<f>/q/<Q>',
            '?imageMogr2/thumbnail/<geometry>/format/<f>/quality/<Q>' and '|' pipelines make variants,
            'ignore-error/1' returns the source when a variant fails, and style suffixes
            ('photo.jpg-WebPiOSW750') come from the styles file:
              {"separator": "-", "styles": {"WebPiOSW750": "imageView2/2/w/750/format/webp"}}
            Also serves /healthz and /metrics (Prometheus text). Prints 'listening on http://HOST:PORT'
            first (the real port when 0 is asked), one line per request, and stops cleanly on SIGINT or
            SIGTERM.
            """,
        options: [
            .option("--root", value: "DIR", help: "The folder of images to serve (required)."),
            ListenAddress.option(defaultPort: defaultPort),
            .option("--styles", value: "FILE", help: "A JSON styles file for style suffixes."),
            .flag("--auto-webp", help: "Serve WebP to clients whose Accept lists image/webp."),
            .flag(
                "--auto-format",
                help: "Serve AVIF, WebP or the source, whichever the client's Accept names with the highest q."),
            .flag(
                "--avif-sequences",
                help: "With --auto-format, also offer an animation that plays forever and has no alpha as an AVIF"
                    + " image sequence to clients naming AVIF (some that do show only its first frame)."),
            .flag(
                "--client-hints",
                help: "Size JPEG/PNG images by Sec-CH-Width, or Sec-CH-Viewport-Width x Sec-CH-DPR (and the legacy"
                    + " names), in width buckets; a hint only lowers a URL's width."),
            .flag(
                "--save-data",
                help: "Serve 'Save-Data: on' clients one width bucket smaller, at a quality searched to a lower"
                    + " target (\(ImageTransformer.Configuration().saveDataQualityTarget)), never above the default."),
            .option(
                "--quality", value: "Q",
                help: "Default WebP quality of variants, 1-100 (default 80). " + QualityOption.autoHelp
                    + " Applies to WebP and AVIF variants; /quality/N and q/N in a URL still win."),
            .option(
                "--webp-method", value: "M",
                help: "libwebp's method for lossy WebP variants, 0 (fastest) to 6 (smallest); default 4."
                    + " 2 encodes in under half the time for 2-4% more bytes."),
            MemorySize.budgetOption(defaultBytes: ImageOrigin.MemoryBudget.defaultTotalBytes),
            WorkBudgetOption.spec,
        ] + ServerLimitOptions.specs)

    /// The port `--listen` defaults to (on 127.0.0.1).
    static let defaultPort = 8081

    /// Memory per connection for a request's head unless `--max-head-memory`
    /// says otherwise: 16 KiB, half the server's default, which admits heads
    /// of about 8 KB (a 4 KB `Cookie`, not an 8 KB one). An origin is asked
    /// by CDNs and bridges, not by browsers with a site's cookies, and
    /// libmicrohttpd clears this memory for every request: at 32 KiB the
    /// clearing was 58% of a cached answer's instructions (callgrind,
    /// bench/callgrind_http.py).
    static let headMemoryBytes = 16 * 1024

    var root: String
    var listen: ListenAddress
    var stylesPath: String?
    var autoWebP: Bool
    var autoFormat: Bool
    var clientHints: Bool
    var saveData: Bool
    var quality: QualityOption?
    var webpMethod: Int?
    /// `--avif-sequences`: negotiation offers AVIF image sequences
    /// (``ImageTransformer/Configuration/negotiatesAVIFSequences``).
    var avifSequences: Bool
    /// `--memory-budget`: what every cache's bound is a share of.
    var memoryBudget: ImageOrigin.MemoryBudget
    /// `--work-budget`: pixels one variant may take, in all.
    var workBudgetPixels: Int?
    var serverLimits: ServerLimitOptions

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(0...0, describing: "")
        guard let root = parsed.string("--root") else { throw UsageError("missing --root DIR") }
        self.root = root
        listen = try ListenAddress(parsed: parsed, defaultPort: Self.defaultPort)
        stylesPath = parsed.string("--styles")
        autoWebP = parsed.flag("--auto-webp")
        autoFormat = parsed.flag("--auto-format")
        clientHints = parsed.flag("--client-hints")
        saveData = parsed.flag("--save-data")
        avifSequences = parsed.flag("--avif-sequences")
        if avifSequences, !autoFormat {
            throw UsageError("--avif-sequences goes with --auto-format: it adds a format negotiation offers")
        }
        quality = try QualityOption.parse(parsed, in: 1...100)
        webpMethod = try parsed.int("--webp-method", in: 0...6)
        memoryBudget = try MemorySize.budget(parsed).map { ImageOrigin.MemoryBudget(totalBytes: $0) } ?? .init()
        workBudgetPixels = try WorkBudgetOption.pixels(parsed)
        serverLimits = try ServerLimitOptions(parsed: parsed)
    }

    func makeOrigin() throws -> ImageOrigin {
        var styles = StyleSheet.empty
        if let stylesPath {
            do {
                styles = try StyleSheet(json: InputFile.read(stylesPath))
            } catch let error as StyleSheetError {
                throw CommandFailure("\(stylesPath): \(error.message)")
            }
        }
        var configuration = ImageOrigin.Configuration(
            root: root, styles: styles, autoWebP: autoWebP, autoFormat: autoFormat, memoryBudget: memoryBudget)
        configuration.clientHints = clientHints
        configuration.saveData = saveData
        configuration.transformer.negotiatesAVIFSequences = avifSequences
        switch quality {
        case .fixed(let quality): configuration.transformer.defaultWebPQuality = quality
        case .auto(let target): configuration.transformer.qualityMode = .auto(target: target)
        case nil: break
        }
        if let webpMethod { configuration.transformer.webpMethod = webpMethod }
        if let workBudgetPixels { configuration.transformer.limits.maxWorkPixels = workBudgetPixels }
        // A file replaced under a running origin is served as it was for at
        // most a second; every hit within that second skips a `stat`.
        configuration.readyAnswerRevalidation = .seconds(1)
        do {
            return try ImageOrigin(configuration: configuration)
        } catch {
            throw CommandFailure("--root: \(error.message)")
        }
    }

    /// Where to listen and the limits given on the command line.
    var serverConfiguration: HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(host: listen.host, port: listen.port)
        // Request bodies in flight take the budget's share unless --max-body-total says otherwise.
        configuration.limits.maxBodyBytesInFlight = memoryBudget.requestBodyBytes
        configuration.limits.maxHeaderBytes = Self.headMemoryBytes
        serverLimits.apply(to: &configuration.limits)
        return configuration
    }

    func run(io: CommandIO) async throws {
        let origin = try makeOrigin()
        // One line per request, formatted and written in batches on the
        // log's thread: a write(2) per request cost the server's threads more
        // than answering a cached variant.
        let log = RequestLogWriter(output: io.writeOutput)
        defer { log.close() }
        let server = HTTPServer(
            configuration: serverConfiguration, handler: origin, metrics: origin.metrics,
            requestLog: { log.append($0) })
        try await ServerLifecycle.run(server, io: io, name: "origin")
    }
}
