package import Foundation
import ImageOrigin
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads the demo's front page through a bridge, then every image on it
/// once for each kind of client in ``profiles`` — a WebView that cannot
/// decode WebP, a WebP client, an AVIF client — then the same images
/// directly from the origin, and measures each one.
///
/// A short-lived `URLSession` does the loading: the client runs once per demo.
package struct DemoClient: Sendable {
    /// A kind of client: what it sends, so the bridge tells it apart.
    package struct Profile: Sendable, Hashable {
        /// Short name for scripts (`demo-report.json`): `legacy-webview`, `webp`, `avif`.
        package var name: String
        /// What the report calls it.
        package var label: String
        /// The `User-Agent` it sends.
        package var userAgent: String
        /// The `Accept` it sends for `<img>`.
        package var imageAccept: String
        /// Where it loads the images from.
        package var route: Route = .bridge
        /// Further request fields it sends for images (client hints, `Save-Data`).
        package var imageFields: [(name: String, value: String)] = []

        /// Where a client loads the page's images from.
        package enum Route: Sendable, Hashable {
            /// Through its own reverse bridge, in front of the demo's origin
            /// at its fixed qualities (WebP q80, AVIF q60): today's settings.
            case bridge
            /// Straight from the tuned origin (``DemoSiteOrigin/tunedConfiguration(root:target:)``):
            /// quality chosen per image, the smallest format the client
            /// accepts, sizes from the client's hints. Each image is asked
            /// at the screen width in the URL (`?imageView2/2/w/W`), as a
            /// page written for the CDN names it, unless `sizedByHints`:
            /// then the plain URL, and the client's hints size it.
            case tunedOrigin(sizedByHints: Bool)
        }

        /// iOS 13's WebView: WebKit without WebP (it came in iOS 14); the
        /// bridge transcodes the WebP variant for it. The demo's first
        /// client, which also loads the page.
        package static let legacyWebView = Profile(
            name: "legacy-webview", label: "iOS 13 WebView, no WebP (transcoded)",
            userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15"
                + " (KHTML, like Gecko) Version/13.1.2 Mobile/15E148 Safari/604.1",
            imageAccept: "image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5")
        /// Safari 14 on iOS 14: WebP, no AVIF.
        package static let webP = Profile(
            name: "webp", label: "iOS 14 Safari (WebP)",
            userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 14_8 like Mac OS X) AppleWebKit/605.1.15"
                + " (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1",
            imageAccept: "image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5")
        /// Chrome, which names AVIF first.
        package static let avif = Profile(
            name: "avif", label: "Chrome (AVIF)",
            userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
                + " Chrome/131.0.0.0 Safari/537.36",
            imageAccept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8")

        /// Safari 14 again, from the tuned origin.
        package static let tunedWebP = Profile(
            name: "webp-tuned", label: "iOS 14 Safari (WebP), tuned origin",
            userAgent: webP.userAgent, imageAccept: webP.imageAccept, route: .tunedOrigin(sizedByHints: false))
        /// Chrome again, from the tuned origin.
        package static let tunedAVIF = Profile(
            name: "avif-tuned", label: "Chrome (AVIF), tuned origin",
            userAgent: avif.userAgent, imageAccept: avif.imageAccept, route: .tunedOrigin(sizedByHints: false))
        /// Chrome with the reader's data saver on (`Save-Data: on`).
        package static let saveData = Profile(
            name: "avif-save-data", label: "Chrome (AVIF), Save-Data, tuned origin",
            userAgent: avif.userAgent, imageAccept: avif.imageAccept, route: .tunedOrigin(sizedByHints: false),
            imageFields: [("Save-Data", "on")])
        /// Chrome on a phone with a 3× screen showing each image 320 CSS
        /// pixels wide: its hints (`Sec-CH-DPR: 3`, `Sec-CH-Width: 960`, the
        /// slot in device pixels, `Sec-CH-Viewport-Width: 320`) size the images.
        package static let phone = Profile(
            name: "avif-phone-3x", label: "Chrome (AVIF) on a 3× phone, 320 CSS px, tuned origin",
            userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)"
                + " Chrome/131.0.0.0 Mobile Safari/537.36",
            imageAccept: avif.imageAccept, route: .tunedOrigin(sizedByHints: true),
            imageFields: [("Sec-CH-DPR", "3"), ("Sec-CH-Width", "960"), ("Sec-CH-Viewport-Width", "320")])

        /// Every client, in the report's order: today's three through their
        /// bridges, then the tuned origin's four.
        package static let all = [legacyWebView, webP, avif, tunedWebP, tunedAVIF, saveData, phone]
        /// The clients that load through a bridge of their own.
        package static var bridged: [Profile] { all.filter { $0.route == .bridge } }

        package static func == (left: Profile, right: Profile) -> Bool { left.name == right.name }
        package func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// What a browser sends for a page.
    static let pageAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    /// Where the site is loaded through the bridge.
    var bridge: URL
    /// Where each of ``profiles`` loads the images, in the same order (each
    /// bridge with its own cache); ``bridge`` for a profile without one.
    var clientBridges: [URL] = []
    /// Where the same images are loaded directly (the original cost).
    var origin: URL
    /// Scores each delivered image with SSIMULACRA 2 besides luma SSIM; `nil`: SSIM only.
    var scorer: SSIMULACRA2Scorer?
    /// The tuned origin, for profiles routed there; `nil` skips them.
    var tunedOrigin: URL?
    /// The screen width the images are asked at (the bridges' `--width`).
    var width = 750
    /// What a URL sized for the screen adds: `imageView2/2/w/W`, no format,
    /// so the tuned origin negotiates it.
    var sizing: String { "imageView2/2/w/\(width)" }
    /// Requests in flight at once, as a browser opens six connections a host.
    var connections = 6
    /// Each request's time limit, in seconds.
    var timeout: TimeInterval = 60
    /// The clients the images are loaded as, each once; the first also
    /// loads the page, and the originals are loaded as it.
    var profiles = Profile.all

    /// Loads and measures everything.
    ///
    /// - Throws: ``DemoFailure`` when the front page cannot be loaded or
    ///   references no image.
    package func run() async throws -> DemoReport {
        let session = URLSession(configuration: sessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        let clock = ContinuousClock()
        guard let first = profiles.first else { throw DemoFailure("the demo has no client to load the page as") }

        let pageURL = URL(string: "/", relativeTo: bridge)?.absoluteURL ?? bridge
        let page = try await fetch(pageURL, accept: Self.pageAccept, as: first, session: session)
        guard page.status == 200 else {
            throw DemoFailure("the front page at \(pageURL.absoluteString) answered \(page.status)")
        }
        let html = String(decoding: page.body, as: UTF8.self)
        let references = DemoPageReferences(html: html)
        guard !references.images.isEmpty else {
            throw DemoFailure("the front page at \(pageURL.absoluteString) references no image")
        }
        let assets = try await fetchAll(
            references.stylesheets + references.scripts, base: bridge, accept: "*/*", as: first, session: session)
        let passedThrough = assets.map(\.body.count).reduce(page.body.count, +)

        var loads: [(profile: Profile, images: [Fetched], time: Duration)] = []
        var bridged = 0
        for profile in profiles {
            let start = clock.now
            let images: [Fetched]
            switch profile.route {
            case .bridge:
                let base = bridged < clientBridges.count ? clientBridges[bridged] : bridge
                bridged += 1
                images = try await fetchAll(
                    references.images, base: base, accept: profile.imageAccept, as: profile, session: session)
            case .tunedOrigin(let sizedByHints):
                guard let tunedOrigin else { continue }
                let paths = sizedByHints ? references.images : references.images.map { $0 + "?" + sizing }
                images = try await fetchAll(
                    paths, base: tunedOrigin, accept: profile.imageAccept, fields: profile.imageFields, as: profile,
                    session: session)
            }
            loads.append((profile, images, clock.now - start))
        }

        let directStart = clock.now
        let direct = try await fetchAll(
            references.images, base: origin, accept: first.imageAccept, as: first, session: session)
        let directTime = clock.now - directStart

        let pairFolder = scorer.map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("webp-bridge-demo-pairs-\(UUID().uuidString)")
        }
        defer { if let pairFolder { try? FileManager.default.removeItem(at: pairFolder) } }
        if let pairFolder { try FileManager.default.createDirectory(at: pairFolder, withIntermediateDirectories: true) }
        var clients: [DemoReport.ClientRun] = []
        for load in loads {
            let results = await Self.measureAll(
                paths: references.images, originals: direct, delivered: load.images,
                pairs: pairFolder.map { ($0, load.profile.name) })
            clients.append(.init(profile: load.profile, images: results, bridgeTime: load.time))
        }
        if let scorer { try Self.score(&clients, with: scorer) }
        return DemoReport(
            clients: clients, pageBytes: passedThrough, directTime: directTime,
            bridgeURL: bridge.absoluteString, originURL: origin.absoluteString)
    }

    // MARK: Loading

    struct Fetched: Sendable {
        var status: Int
        var contentType: String
        var body: Data
        /// What the bridge says it received from the upstream for this
        /// response (`X-WebPBridge-Wire-Bytes`); `nil` from the origin.
        var upstreamBytes: Int? = nil
        /// The quality the tuned origin chose for it (`X-Image-Quality`), if it searched one.
        var chosenQuality: String? = nil
    }

    private func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        return configuration
    }

    private func fetch(
        _ url: URL, accept: String, fields: [(name: String, value: String)] = [], as profile: Profile,
        session: URLSession
    ) async throws -> Fetched {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue(profile.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(accept, forHTTPHeaderField: "Accept")
        for field in fields { request.setValue(field.value, forHTTPHeaderField: field.name) }
        do {
            let (body, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            return Fetched(
                status: http?.statusCode ?? 0, contentType: http?.value(forHTTPHeaderField: "Content-Type") ?? "",
                body: body,
                upstreamBytes: http?.value(forHTTPHeaderField: BridgeDiagnosticHeader.wireBytes).flatMap { Int($0) },
                chosenQuality: http?.value(forHTTPHeaderField: ImageTransformer.qualityField))
        } catch {
            throw DemoFailure("\(url.absoluteString): \(error.localizedDescription)")
        }
    }

    /// Fetches every path (root-relative, as the page names them) from
    /// `base`, at most ``connections`` at once, in the order given.
    private func fetchAll(
        _ paths: [String], base: URL, accept: String, fields: [(name: String, value: String)] = [],
        as profile: Profile, session: URLSession
    ) async throws -> [Fetched] {
        try await withThrowingTaskGroup(of: (Int, Fetched).self) { group in
            var results = [Fetched?](repeating: nil, count: paths.count)
            for (index, path) in paths.enumerated() {
                if index >= connections, let (done, fetched) = try await group.next() { results[done] = fetched }
                guard let url = URL(string: path, relativeTo: base)?.absoluteURL else {
                    throw DemoFailure("the page references '\(path)', which is not a URL")
                }
                group.addTask {
                    (index, try await fetch(url, accept: accept, fields: fields, as: profile, session: session))
                }
            }
            for try await (done, fetched) in group { results[done] = fetched }
            return results.map { $0! }
        }
    }

    // MARK: Measuring

    /// Scores every measured pair of `clients` with `scorer` in one run.
    static func score(_ clients: inout [DemoReport.ClientRun], with scorer: SSIMULACRA2Scorer) throws {
        var places: [(client: Int, image: Int)] = []
        var pairs: [(reference: URL, distorted: URL)] = []
        for (client, run) in clients.enumerated() {
            for (image, result) in run.images.enumerated() {
                guard let files = result.pairFiles else { continue }
                places.append((client, image))
                pairs.append(files)
            }
        }
        for (place, score) in zip(places, try scorer.scores(of: pairs)) {
            clients[place.client].images[place.image].ssimulacra2 = score
            clients[place.client].images[place.image].pairFiles = nil
        }
    }

    /// Measures every image, on every core; with `pairs`, each measured
    /// pair is also written there as PNG files named after the client.
    static func measureAll(
        paths: [String], originals: [Fetched], delivered: [Fetched], pairs: (folder: URL, client: String)? = nil
    ) async -> [DemoImageResult] {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, DemoImageResult).self) { group in
            var results = [DemoImageResult?](repeating: nil, count: paths.count)
            for index in paths.indices {
                if index >= cores, let (done, result) = await group.next() { results[done] = result }
                group.addTask {
                    let stem = pairs.map { ($0.folder, "\($0.client)-\(index)") }
                    return (
                        index,
                        measure(
                            path: paths[index], original: originals[index], delivered: delivered[index],
                            pair: stem)
                    )
                }
            }
            for await (done, result) in group { results[done] = result }
            return results.map { $0! }
        }
    }

    /// Compares one delivered image with its original: both decoded (first
    /// frame), over white, the original scaled with ``ImageResizer`` to the
    /// delivered size, then luma SSIM; the delivered image's frames are
    /// counted. Images under SSIM's 11×11 window count as 1 when their
    /// pixels match and 0 otherwise.
    static func measure(
        path: String, original: Fetched, delivered: Fetched, pair: (folder: URL, stem: String)? = nil
    ) -> DemoImageResult {
        // A bridge that does not say what it fetched is counted at the size it delivered.
        var result = DemoImageResult(
            path: path, original: original.body, delivered: delivered.body,
            wireBytes: delivered.upstreamBytes ?? delivered.body.count, originalType: original.contentType,
            deliveredType: delivered.contentType)
        result.chosenQuality = delivered.chosenQuality
        guard original.status == 200 else {
            result.failure = "the origin answered \(original.status)"
            return result
        }
        guard delivered.status == 200 else {
            result.failure = "the bridge answered \(delivered.status)"
            return result
        }
        let decoder = ImageDecoder()
        func firstFrame(_ body: Data, _ what: String) -> Image? {
            do {
                return try decoder.decode(body).firstFrame
            } catch {
                result.failure = "\(what) does not decode: \(error)"
                return nil
            }
        }
        guard let before = firstFrame(original.body, "the original") else { return result }
        result.originalSize = (before.width, before.height)
        guard let after = firstFrame(delivered.body, "the delivered image") else { return result }
        result.deliveredSize = (after.width, after.height)
        // From the headers, which count an AVIF sequence's frames too (its decode is its first frame).
        result.deliveredFrames = (try? ImageInfo(delivered.body))?.frames
        do {
            let scaled = try ImageResizer().resize(before, width: after.width, height: after.height)
            result.resizedBytes = try resizedBytes(
                original: original.body, scaled: scaled,
                resized: (before.width, before.height) != (after.width, after.height))
            let reference = overWhite(scaled)
            let candidate = overWhite(after)
            if after.width < 11 || after.height < 11 {
                result.ssim = reference.pixels == candidate.pixels ? 1 : 0
            } else {
                result.ssim = try SSIM.luma(reference, candidate)
                if let pair {
                    let files = (
                        reference: pair.folder.appendingPathComponent(pair.stem + "-reference.png"),
                        distorted: pair.folder.appendingPathComponent(pair.stem + "-delivered.png")
                    )
                    try PNGEncoder().encode(reference).write(to: files.reference)
                    try PNGEncoder().encode(candidate).write(to: files.distorted)
                    result.pairFiles = files
                }
            }
        } catch {
            result.failure = "cannot compare: \(error)"
        }
        return result
    }

    /// What resizing alone would have cost, with no change of format: the
    /// original unchanged when it was not resized, else a JPEG original as
    /// JPEG at quality 90 and a PNG as PNG at the delivered size; `nil` for
    /// other formats (an animated GIF is not re-encoded), which count at
    /// their original bytes.
    static func resizedBytes(original: Data, scaled: Image, resized: Bool) throws -> Int? {
        guard resized else { return original.count }
        switch ImageFormat.sniffIfImage(original) {
        case .jpeg: return try JPEGEncoder(options: .init(quality: 90)).encode(scaled).count
        case .png: return try PNGEncoder().encode(scaled).count
        default: return nil
        }
    }

    /// `image` composited over opaque white, so transparent pixels compare
    /// as a page shows them, whatever colour they hide.
    static func overWhite(_ image: Image) -> Image {
        guard !image.isOpaque else { return image }
        var result = image
        result.pixels.withUnsafeMutableBufferPointer { pixels in
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = UInt32(pixels[offset + 3])
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(
                        (UInt32(pixels[offset + channel]) * alpha + 255 * (255 - alpha) + 127) / 255)
                }
                pixels[offset + 3] = 255
            }
        }
        result.hasAlpha = false
        return result
    }
}

extension DemoClient {
    /// A client loading the site through `bridge` and directly from `origin`,
    /// six connections at once, 60 seconds a request; each profile loads
    /// the images through its own bridge of `clientBridges` when given.
    package init(
        bridge: URL, origin: URL, clientBridges: [URL] = [], tunedOrigin: URL? = nil, width: Int = 750,
        scorer: SSIMULACRA2Scorer? = nil
    ) {
        self.scorer = scorer
        self.bridge = bridge
        self.origin = origin
        self.clientBridges = clientBridges
        self.tunedOrigin = tunedOrigin
        self.width = width
    }
}
