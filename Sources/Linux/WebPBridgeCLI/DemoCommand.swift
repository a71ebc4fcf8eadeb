import BridgeProxy
import Foundation
import HTTPServer
import ImageOrigin
import WebPBridgeDemo

/// `webp-bridge demo`: builds a sample news site, serves it through the
/// bridge and shows what each kind of client saves: a WebView that cannot
/// decode WebP, a WebP client and an AVIF client. The site, servers,
/// client and report are `WebPBridgeDemo`'s; this command parses the
/// options, makes the bridges as `proxy` does and prints.
struct DemoCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the bytes a news front page saves through the bridge.",
        usage: [
            "[--images DIR] [--report PATH] [--serve] [--width W] [--ssimulacra2 PYTHON]"
                + " [--quality auto[:TARGET]]"
        ],
        discussion: """
            Builds a sample news site in a temporary folder: 48 articles whose photos are cut from the
            source JPEGs and published as a CMS would (JPEG q90, 1,000-2,000 px wide), PNG logos with
            alpha, two animated GIFs (a small badge, and a photographic pan and zoom of 32 frames over the
            first photo), a stylesheet and a script. Starts on 127.0.0.1 the origin (style WebPiOSW750 =
            imageView2/2/w/750/format/webp, --auto-format), a bridge in front of it for each kind of client
            below that loads through one (rules asking for AVIF, then WebP), and the tuned origin (the origin
            with --auto-format --avif-sequences --quality auto:TARGET --client-hints --save-data). Loads the
            front page through the bridge, then every image as seven kinds of client: through their bridges
            at the fixed qualities, an iOS 13 WebView without WebP (the bridge transcodes the WebP variant
            for it), iOS 14 Safari (WebP) and Chrome (AVIF); straight from the tuned origin, Safari, Chrome,
            Chrome with 'Save-Data: on', and Chrome on a 3x phone whose client hints size the images; then
            every image directly from the origin. Prints, for each client, the bytes on the wire and the luma
            SSIM (and, with --ssimulacra2, SSIMULACRA 2) of each delivered image against its original scaled
            to the same size; how much of the saving is the resize alone (the original's format at the
            delivered size: JPEG q90, PNG); each tuned client beside the bridged client that sends its
            Accept, image by image; and the frames each client was handed for each animation. The last line
            reads 'saved A% / B% / ... of image bytes (legacy-webview / webp / ...; N MB direct), min SSIM
            x / y / ...'. Writes an HTML report with every image side by side and a bar chart, and its
            figures as JSON beside it (demo-report.json).

            Source photos: --images DIR, else the photos that 'make demo-photos' unpacks from Debian's
            mate-backgrounds package into \(DemoCommand.cachedPhotos).
            """,
        options: [
            .option("--images", value: "DIR", help: "A folder of source JPEGs (default: the mate-backgrounds cache)."),
            .option("--report", value: "PATH", help: "Where to write the HTML report (default demo-report.html)."),
            .flag("--serve", help: "Keep the origin and bridge running afterwards, until SIGINT or SIGTERM."),
            .option("--width", value: "W", help: "The screen width the bridge asks variants for (default 750)."),
            .option(
                "--quality", value: "auto[:TARGET]",
                help: "The tuned origin's quality, as origin's --quality auto takes it (default auto:"
                    + "\(DemoSiteOrigin.tunedTarget), an SSIMULACRA 2 score)."),
            .option(
                "--ssimulacra2", value: "PYTHON",
                help: "A Python with PyPI's ssimulacra2: score every image with SSIMULACRA 2 too ('make demo'"
                    + " passes .build/quality-venv/bin/python)."),
        ])

    /// Where `make demo-photos` leaves the photos, relative to the project.
    static let cachedPhotos = ".build/demo-cache/mate-backgrounds/usr/share/backgrounds/mate/nature"

    var images: String?
    var reportPath: String
    var serve: Bool
    var width: Int
    var scorer: SSIMULACRA2Scorer?
    /// The tuned origin's `--quality auto` target.
    var tunedTarget = DemoSiteOrigin.tunedTarget
    /// Where to look for photos without `--images`; tests point it elsewhere.
    var cacheFolder = Self.cachedPhotos

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(0...0, describing: "")
        images = parsed.string("--images")
        reportPath = parsed.string("--report") ?? "demo-report.html"
        serve = parsed.flag("--serve")
        width = try parsed.int("--width", in: 16...4_096) ?? 750
        scorer = parsed.string("--ssimulacra2").map(SSIMULACRA2Scorer.init(python:))
        switch try QualityOption.parse(parsed, in: 1...100) {
        case .auto(let target): tunedTarget = target
        case .fixed: throw UsageError("option '--quality' of demo takes auto or auto:TARGET (the tuned origin's)")
        case nil: break
        }
    }

    /// The demo's bridges, made exactly as `webp-bridge proxy ARGUMENTS`
    /// makes one; what the command would print on standard error goes to `log`.
    static let makeBridge: DemoServers.BridgeMaker = { arguments, log in
        let command = try ProxyCommand(
            parsed: ParsedArguments(arguments, configuration: ProxyCommand.configuration))
        let silent = CommandIO(
            writeOutput: { _ in }, writeError: { text in log?(text) }, readLine: { nil }, isTerminal: false,
            inputIsTerminal: true)
        return (try command.makeBridge(io: silent), command.serverConfiguration)
    }

    /// The folder of source photos to use.
    ///
    /// - Throws: ``CommandFailure`` saying how to provide photos when there are none.
    func photoFolder() throws -> URL {
        if let images {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: images, isDirectory: &isFolder), isFolder.boolValue else {
                throw CommandFailure("--images: '\(images)' is not a folder")
            }
            return URL(fileURLWithPath: images)
        }
        let cached = URL(fileURLWithPath: cacheFolder)
        if let photos = try? DemoSite.sourcePhotos(in: cached), !photos.isEmpty { return cached }
        throw CommandFailure(
            "no sample photos: run 'make demo-photos' (it fetches Debian's mate-backgrounds package into "
                + ".build/demo-cache without installing it), or pass --images DIR with a folder of JPEG photos")
    }

    func run(io: CommandIO) async throws {
        let photos = try photoFolder()
        let site = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webp-bridge-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }

        io.print("building the sample site from \(photos.path) in \(site.path)")
        let manifest = try await DemoSite().build(photos: photos, into: site) { io.print("  " + $0) }
        let animations = manifest.files.filter { $0.hasSuffix(".gif") }.count
        io.print(
            "  \(manifest.files.count) files: index.html, \(manifest.articles.count) article photos,"
                + " \(manifest.logoPaths.count) logos, \(animations) animated GIFs, CSS and JS")

        let servers = try await DemoServers.start(
            site: site, width: width, tunedTarget: tunedTarget, makeBridge: Self.makeBridge)
        io.print(
            "origin: \(servers.originURL.absoluteString)"
                + "  (image origin, style \(DemoSiteOrigin.styleName), --auto-format)")
        io.print(
            "tuned origin: \(servers.tunedOriginURL.absoluteString)"
                + "  (--auto-format: the smallest format each client accepts equally)")
        io.print("bridge: \(servers.bridgeURL.absoluteString)  (reverse proxy, qiniu-legacy preset, width \(width))")
        io.print(
            "forward-bridge: \(servers.forwardBridgeURL.absoluteString)"
                + "  (forward proxy for the origin's host; use as --proxy-server)")
        do {
            io.print(
                "loading the front page, then its images as each kind of client: "
                    + DemoClient.Profile.all.map(\.label).joined(separator: "; ") + "…")
            let report = try await DemoClient(
                bridge: servers.bridgeURL, origin: servers.originURL, clientBridges: servers.clientBridgeURLs,
                tunedOrigin: servers.tunedOriginURL, width: width, scorer: scorer
            ).run()
            let reportURL = URL(fileURLWithPath: reportPath)
            let folder = try report.writeHTML(to: reportURL)
            let figuresURL = DemoReport.jsonURL(besideHTML: reportURL)
            try report.writeJSON(to: figuresURL)
            io.print(
                "report: \(reportURL.path) (images in \(folder.lastPathComponent)/ beside it;"
                    + " figures in \(figuresURL.lastPathComponent))")
            io.print("")
            io.writeOutput(report.table)
            if !report.failures.isEmpty {
                throw CommandFailure(
                    "\(report.failures.count) of \(report.imageLoads) image loads failed through the bridge")
            }
            if serve {
                io.printError(
                    "serving: open \(servers.bridgeURL.absoluteString)/ in a browser,"
                        + " or \(servers.originURL.absoluteString)/ through the proxy"
                        + " \(servers.forwardBridgeURL.absoluteString); SIGINT or SIGTERM stops")
                let signalName = await ServerLifecycle.waitForTerminationSignal()
                io.printError("\(signalName) received: stopping the bridge and the origin")
            }
        } catch {
            await servers.stop()
            throw error
        }
        await servers.stop()
    }
}
