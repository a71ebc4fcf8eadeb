package import Foundation
import WebPBridge

/// Builds the demo's sample news site from a folder of source photos: a
/// front page (`index.html`) of articles, each with a photo published as a
/// CMS would (JPEG q90, 1,000–2,000 px wide, under `images/`), PNG logos
/// with alpha, an animated badge and a photographic animated GIF, a
/// stylesheet and a script (`static/`).
///
/// The same photos and configuration always give byte-identical files.
package struct DemoSite: Sendable {
    /// What to build.
    struct Configuration: Sendable {
        /// Articles on the front page. Default 48.
        var articleCount = 48
        /// Widths the article photos are published at. Default 1,000–2,000 px.
        var photoWidths = 1_000...2_000
        /// JPEG quality of the article photos. Default 90, a CMS's usual setting.
        var photoQuality = 90
        /// Frames of the photographic GIF (100 ms each). Default 32: 3.2 s.
        var photoAnimationFrames = 32
    }

    /// One article on the front page.
    package struct Article: Sendable, Equatable {
        var number: Int
        var section: String
        var headline: String
        var summary: String
        var byline: String
        /// The photo's path on the site, e.g. `/images/article-01.jpg`.
        var photoPath: String
        var photoWidth: Int
        var photoHeight: Int
        /// Which source photo it was cut from (its file name).
        var sourceName: String
    }

    /// What was built.
    package struct Manifest: Sendable {
        package var articles: [Article]
        /// Site paths of the logos (PNG with alpha).
        package var logoPaths: [String]
        /// Site path of the animated badge (a small graphic GIF with alpha).
        var animationPath: String
        /// Site path of the photographic animated GIF: a pan and zoom over
        /// the first source photo, 480×270, 32 frames of 100 ms
        /// (``DemoArtwork/panAndZoom(over:width:height:frameCount:frameMilliseconds:)``).
        package var photoAnimationPath: String
        /// Every file written, as site paths (`/index.html`, `/images/…`).
        package var files: [String]
    }

    var configuration = Configuration()

    /// The photographic GIF's file name under `images/`.
    package static let photoAnimationName = "scene-pan.gif"

    /// A site of the default ``Configuration``: 48 articles, photos 1,000–2,000 px wide at JPEG q90.
    package init() {}

    /// The JPEG files of `folder` (by extension, `.jpg`/`.jpeg` in any case), sorted by name.
    package static func sourcePhotos(in folder: URL) throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// Builds the site from the JPEGs in `photos` into `output` (created when missing).
    ///
    /// - Parameter progress: called with a short line as each stage starts.
    /// - Throws: ``DemoFailure`` when `photos` holds no JPEG or one cannot
    ///   be decoded; file system and codec errors as they come.
    package func build(photos: URL, into output: URL, progress: @Sendable (String) -> Void = { _ in }) async throws
        -> Manifest
    {
        let sources = try Self.sourcePhotos(in: photos)
        guard !sources.isEmpty else {
            throw DemoFailure("\(photos.path) holds no JPEG photos (.jpg or .jpeg)")
        }
        let images = output.appendingPathComponent("images")
        let statics = output.appendingPathComponent("static")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: statics, withIntermediateDirectories: true)

        progress("decoding \(sources.count) source photos")
        let decoded = try await Self.decodeAll(sources)
        progress("publishing \(configuration.articleCount) article photos (JPEG q\(configuration.photoQuality))")
        let articles = try await publishArticles(from: decoded, names: sources.map(\.lastPathComponent), into: images)

        progress("drawing logos and the animated badge")
        var logoPaths: [String] = []
        for logo in DemoArtwork.logos() {
            try PNGEncoder().encode(logo.image).write(to: images.appendingPathComponent(logo.name))
            logoPaths.append("/images/" + logo.name)
        }
        let animationName = "live.gif"
        try GIFEncoder().encode(DemoArtwork.liveBadge()).write(to: images.appendingPathComponent(animationName))
        progress("making the photographic GIF (a pan and zoom over \(sources[0].lastPathComponent))")
        let photoAnimationName = Self.photoAnimationName
        try GIFEncoder().encode(
            try DemoArtwork.panAndZoom(over: decoded[0], frameCount: configuration.photoAnimationFrames)
        )
        .write(to: images.appendingPathComponent(photoAnimationName))

        let manifest = Manifest(
            articles: articles, logoPaths: logoPaths, animationPath: "/images/" + animationName,
            photoAnimationPath: "/images/" + photoAnimationName,
            files: ["/index.html", "/static/site.css", "/static/site.js"] + articles.map(\.photoPath) + logoPaths
                + ["/images/" + animationName, "/images/" + photoAnimationName])
        try Data(DemoPage.html(manifest).utf8).write(to: output.appendingPathComponent("index.html"))
        try Data(DemoPage.stylesheet.utf8).write(to: statics.appendingPathComponent("site.css"))
        try Data(DemoPage.script.utf8).write(to: statics.appendingPathComponent("site.js"))
        return manifest
    }

    /// Decodes every source photo (upright, by EXIF), two at a time per core.
    private static func decodeAll(_ sources: [URL]) async throws -> [Image] {
        try await withThrowingTaskGroup(of: (Int, Image).self) { group in
            for (index, url) in sources.enumerated() {
                group.addTask {
                    do {
                        return (index, try ImageDecoder().decodeStill(Data(contentsOf: url)))
                    } catch {
                        throw DemoFailure("\(url.lastPathComponent): \(error)")
                    }
                }
            }
            var images = [Image?](repeating: nil, count: sources.count)
            for try await (index, image) in group { images[index] = image }
            return images.map { $0! }
        }
    }

    /// Cuts, scales and encodes every article's photo, on every core.
    private func publishArticles(from sources: [Image], names: [String], into folder: URL) async throws -> [Article] {
        let configuration = configuration
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return try await withThrowingTaskGroup(of: Article.self) { group in
            var articles: [Article] = []
            for number in 0..<configuration.articleCount {
                if number >= cores, let article = try await group.next() { articles.append(article) }
                group.addTask {
                    let sourceIndex = number % sources.count
                    let source = sources[sourceIndex]
                    let plan = ArticlePhotoPlan.plan(
                        article: number, sourceCount: sources.count, sourceWidth: source.width,
                        sourceHeight: source.height, widths: configuration.photoWidths)
                    let photo = try plan.render(from: source)
                    let name = String(format: "article-%02d.jpg", number + 1)
                    try JPEGEncoder(options: .init(quality: configuration.photoQuality)).encode(photo)
                        .write(to: folder.appendingPathComponent(name))
                    let copy = Copy.article(number)
                    return Article(
                        number: number + 1, section: copy.section, headline: copy.headline, summary: copy.summary,
                        byline: copy.byline, photoPath: "/images/" + name, photoWidth: plan.width,
                        photoHeight: plan.height, sourceName: names[sourceIndex])
                }
            }
            for try await article in group { articles.append(article) }
            return articles.sorted { $0.number < $1.number }
        }
    }
}

extension DemoSite {
    /// A site built as `configuration` says.
    init(configuration: Configuration) { self.configuration = configuration }
}
