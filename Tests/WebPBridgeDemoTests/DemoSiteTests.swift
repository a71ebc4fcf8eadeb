import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeDemo

@Suite("The demo's sample site", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct DemoSiteTests {
    /// The quality a JPEG was written at, from the sum of its first
    /// quantisation table against libjpeg's scaled standard luminance table.
    static func estimatedQuality(_ jpeg: Data) -> Int? {
        let bytes = [UInt8](jpeg)
        guard let marker = (0..<(bytes.count - 70)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB }) else {
            return nil
        }
        let sum = bytes[(marker + 5)..<(marker + 69)].reduce(0) { $0 + Int($1) }
        let standard = [
            16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
            29,
            51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
            121,
            120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
        ]
        return (1...100).min { quality1, quality2 in
            func distance(_ quality: Int) -> Int {
                let scale = quality < 50 ? 5_000 / quality : 200 - quality * 2
                return abs(standard.reduce(0) { $0 + min(max(($1 * scale + 50) / 100, 1), 255) } - sum)
            }
            return distance(quality1) < distance(quality2)
        }
    }

    @Test(
        "48 distinct articles, photos 1,000-2,000 px at q90, logos with alpha, an animated GIF",
        .timeLimit(.suiteBound))
    func buildsTheFrontPage() async throws {
        let photos = try DemoPhotos.folder(count: 12, sizes: [(1280, 853), (1100, 1100), (1400, 800)])
        let site = try TemporaryDirectory(prefix: "demo-site")
        let manifest = try await DemoSite().build(photos: photos.url, into: site.url)

        #expect(manifest.articles.count == 48)
        #expect(Set(manifest.articles.map(\.headline)).count == 48)
        #expect(Set(manifest.articles.map(\.photoPath)).count == 48)
        var digests = Set<String>()
        for article in manifest.articles {
            let data = try Data(contentsOf: site.url.appendingPathComponent(String(article.photoPath.dropFirst())))
            digests.insert(MD5.hexDigest(data))
            let info = try ImageInfo(data)
            #expect(info.format == .jpeg)
            #expect((1_000...2_000).contains(info.width), "\(article.photoPath) is \(info.width) px wide")
            #expect(info.width == article.photoWidth && info.height == article.photoHeight)
            let quality = Self.estimatedQuality(data)
            #expect(quality.map { (88...92).contains($0) } == true, "\(article.photoPath) looks like q\(quality ?? 0)")
        }
        #expect(digests.count == 48)
        #expect(Set(manifest.articles.map(\.sourceName)).count == 12)

        #expect(manifest.logoPaths.count >= 3)
        for path in manifest.logoPaths {
            let data = try Data(contentsOf: site.url.appendingPathComponent(String(path.dropFirst())))
            #expect(try ImageInfo(data).format == .png && ImageInfo(data).alpha)
            #expect(try !PNGDecoder().decode(data).isOpaque)
        }
        let gif = try Data(contentsOf: site.url.appendingPathComponent(String(manifest.animationPath.dropFirst())))
        let gifInfo = try ImageInfo(gif)
        #expect(gifInfo.format == .gif && gifInfo.frames > 1 && gifInfo.loopCount == 0 && gifInfo.alpha)
        // The photographic GIF: a pan and zoom over a photo, opaque, looping.
        let scene = try Data(
            contentsOf: site.url.appendingPathComponent(String(manifest.photoAnimationPath.dropFirst())))
        let sceneInfo = try ImageInfo(scene)
        #expect(sceneInfo.format == .gif && sceneInfo.width == 480 && sceneInfo.height == 270)
        #expect(sceneInfo.frames == 32 && sceneInfo.loopCount == 0 && !sceneInfo.alpha)
        #expect(manifest.files.contains(manifest.photoAnimationPath))

        let html = try String(contentsOf: site.file("index.html"), encoding: .utf8)
        let references = DemoPageReferences(html: html)
        #expect(references.images.count == 48 + manifest.logoPaths.count + 2)
        #expect(references.images.filter { $0.hasPrefix("/images/article-") && $0.hasSuffix(".jpg") }.count == 48)
        #expect(references.stylesheets == ["/static/site.css"] && references.scripts == ["/static/site.js"])
        for file in manifest.files {
            #expect(FileManager.default.fileExists(atPath: site.url.path + file), "\(file) missing")
        }
    }

    @Test("the same photos always give the same site, byte for byte")
    func deterministic() async throws {
        let photos = try DemoPhotos.folder(count: 3, sizes: [(320, 240)])
        // A 4-frame photographic GIF: 32 take about 10 s per build in a debug build.
        let configuration = DemoSite.Configuration(articleCount: 6, photoWidths: 200...300, photoAnimationFrames: 4)
        var digests: [[String: String]] = []
        for _ in 0..<2 {
            let site = try TemporaryDirectory(prefix: "demo-site")
            let manifest = try await DemoSite(configuration: configuration).build(photos: photos.url, into: site.url)
            var files: [String: String] = [:]
            for file in manifest.files {
                files[file] = MD5.hexDigest(try Data(contentsOf: URL(fileURLWithPath: site.url.path + file)))
            }
            digests.append(files)
        }
        #expect(digests[0] == digests[1])
        let expectedFiles = 15  // page, CSS, JS, 6 photos, 4 logos, the badge GIF, the photographic GIF
        #expect(digests[0].count == expectedFiles)
    }

    @Test("a folder without JPEGs is refused with a clear message")
    func noPhotos() async throws {
        let empty = try TemporaryDirectory()
        let site = try TemporaryDirectory()
        await #expect(throws: DemoFailure.self) { try await DemoSite().build(photos: empty.url, into: site.url) }
    }

    @Test(
        "every article of 12 sources is a distinct cut within 1,000-2,000 px",
        arguments: [(1280, 1024), (2560, 1600), (1600, 1203), (900, 600)])
    func plans(width: Int, height: Int) {
        var cuts: [ArticlePhotoPlan] = []
        for number in 0..<48 {
            let plan = ArticlePhotoPlan.plan(
                article: number, sourceCount: 12, sourceWidth: width, sourceHeight: height, widths: 1_000...2_000)
            #expect((1_000...2_000).contains(plan.width))
            #expect(plan.crop.x >= 0 && plan.crop.y >= 0)
            #expect(plan.crop.x + plan.crop.width <= width && plan.crop.y + plan.crop.height <= height)
            #expect(plan.width <= max(plan.crop.width, 1_000))
            cuts.append(plan)
        }
        for (index, plan) in cuts.enumerated() {
            #expect(!cuts[(index + 1)...].contains(plan), "article \(index + 1) repeats another")
        }
    }
}
