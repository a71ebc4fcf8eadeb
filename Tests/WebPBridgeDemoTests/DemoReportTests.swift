import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeDemo

@Suite("The demo's client and report", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct DemoReportTests {
    private func result(
        _ path: String, original: Int, wire: Int, delivered: Int, resized: Int? = nil, ssim: Double?
    ) -> DemoImageResult {
        DemoImageResult(
            path: path, original: Data(count: original), delivered: Data(count: delivered), wireBytes: wire,
            originalType: "image/jpeg", deliveredType: "image/jpeg", ssim: ssim, resizedBytes: resized)
    }

    /// Two clients: the WebView (transcoded) and an AVIF client.
    private var sample: DemoReport {
        let webView = [
            result(
                "/images/article-01.jpg", original: 3_000_000, wire: 200_000, delivered: 300_000, resized: 600_000,
                ssim: 0.96),
            result(
                "/images/article-02.jpg", original: 2_000_000, wire: 100_000, delivered: 150_000, resized: 400_000,
                ssim: 0.92),
            result("/images/logo-a.png", original: 400_000, wire: 450_000, delivered: 100_000, ssim: 0.99),
            result("/images/live.gif", original: 100_000, wire: 100_000, delivered: 100_000, ssim: 1),
        ]
        var avif = webView
        avif[0].wireBytes = 150_000
        avif[0].ssim = 0.95
        avif[1].wireBytes = 50_000
        return DemoReport(
            clients: [
                .init(profile: .legacyWebView, images: webView, bridgeTime: .milliseconds(1_234)),
                .init(profile: .avif, images: avif, bridgeTime: .milliseconds(2_346)),
            ],
            pageBytes: 20_000, directTime: .milliseconds(567), bridgeURL: "http://127.0.0.1:1",
            originURL: "http://127.0.0.1:2")
    }

    @Test("totals, saving, the resize-versus-format split and SSIM figures")
    func arithmetic() {
        let totals = sample.clients[0].totals
        #expect(totals.count == 4)
        #expect(totals.originalBytes == 5_500_000)
        #expect(totals.wireBytes == 850_000)
        #expect(totals.deliveredBytes == 650_000)
        // The saving is the network's: the bytes the bridge received, not those it handed over.
        #expect(abs(totals.savedPercent - (1 - 850_000.0 / 5_500_000.0) * 100) < 1e-9)
        #expect(abs(totals.deliveredSavedPercent - (1 - 650_000.0 / 5_500_000.0) * 100) < 1e-9)
        #expect(abs(totals.meanSSIM! - (0.96 + 0.92 + 0.99 + 1) / 4) < 1e-12)
        #expect(totals.minSSIM == 0.92)
        // Resizing alone: the two photos' resized bytes, the logo and GIF at their original bytes.
        #expect(totals.resizedBytes == 600_000 + 400_000 + 400_000 + 100_000)
        #expect(abs(totals.resizeSavedPercent - (1 - 1_500_000.0 / 5_500_000.0) * 100) < 1e-9)
        #expect(abs(totals.resizeSavedPercent + totals.formatSavedPercent - totals.savedPercent) < 1e-9)
        let avif = sample.clients[1].totals
        #expect(avif.wireBytes == 750_000 && avif.minSSIM == 0.92 && avif.resizedBytes == totals.resizedBytes)
        #expect(avif.formatSavedPercent > totals.formatSavedPercent)
        #expect(DemoReport.Totals([DemoImageResult]()).savedPercent == 0)
        #expect(
            DemoReport.Totals([result("/a.png", original: 100, wire: 150, delivered: 100, ssim: nil)]).savedPercent
                == -50)
    }

    @Test("the table shows every client and ends with the summary line, exactly")
    func summaryLine() {
        let report = sample
        #expect(
            report.summaryLine
                == "saved 84.5% / 86.4% of image bytes (legacy-webview / avif; 5.5 MB direct), min SSIM 0.920 / 0.920")
        let lines = report.table.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.last.map(String.init) == report.summaryLine)
        #expect(report.table.contains("photos (JPEG)") && report.table.contains("logos (PNG)"))
        #expect(report.table.contains("animation (GIF)"))
        #expect(report.table.contains(DemoClient.Profile.legacyWebView.label))
        #expect(report.table.contains(DemoClient.Profile.avif.label))
        #expect(report.table.contains("legacy-webview 1.23 s") && report.table.contains("avif 2.35 s"))
        #expect(report.table.contains("resizing alone (JPEG q90 / PNG at the delivered size) saves 72.7%"))
        #expect(report.table.contains("avif 13.6 points"), "the format's share of the AVIF client's saving")
    }

    @Test("the HTML report shows every image as every client got it, its figures and an SVG bar chart")
    func html() throws {
        let folder = try TemporaryDirectory()
        var report = sample
        report.clients[0].images[0].original = try JPEGEncoder().encode(SyntheticImages.photo(width: 64, height: 48))
        let url = folder.file("demo-report.html")
        let files = try report.writeHTML(to: url)
        let html = try String(contentsOf: url, encoding: .utf8)
        #expect(html.contains("<svg"))
        for (index, image) in report.clients[0].images.enumerated() {
            #expect(html.contains(image.path))
            let number = String(format: "%02d-", index + 1)
            let names = try FileManager.default.contentsOfDirectory(atPath: files.path).filter { $0.hasPrefix(number) }
            #expect(names.count == 1 + report.clients.count, "\(names)")
            for name in names { #expect(html.contains("demo-report-files/\(name)")) }
        }
        #expect(FileManager.default.fileExists(atPath: files.appendingPathComponent("01-article-01-original.jpg").path))
        for run in report.clients {
            #expect(html.contains(DemoReport.fixed(run.totals.savedPercent, 1) + "%"))
            #expect(html.contains(run.profile.label))
        }
    }

    @Test("the JSON figures hold every client's images, bytes and totals, as the table counts them")
    func json() throws {
        let folder = try TemporaryDirectory()
        var report = sample
        report.clients[0].images[3].failure = "the bridge answered 502"
        let url = DemoReport.jsonURL(besideHTML: folder.file("demo-report.html"))
        #expect(url.lastPathComponent == "demo-report.json")
        #expect(DemoReport.jsonURL(besideHTML: folder.file("figures.json")).lastPathComponent == "figures.json.json")
        try report.writeJSON(to: url)

        let read = try JSONDecoder().decode(DemoReport.Figures.self, from: Data(contentsOf: url))
        #expect(read == report.figures)
        #expect(read.clients.map(\.name) == ["legacy-webview", "avif"])
        let webView = read.clients[0]
        #expect(webView.images.map(\.path) == report.clients[0].images.map(\.path))
        #expect(webView.images.map(\.wireBytes) == [200_000, 100_000, 450_000, 100_000])
        #expect(webView.images[3].failure == "the bridge answered 502" && webView.images[0].failure == nil)
        #expect(webView.images[0].ssim == 0.96 && webView.images[0].resizedBytes == 600_000)
        #expect(webView.totals.wireBytes == 850_000 && webView.totals.resizedBytes == 1_500_000)
        #expect(read.clients[1].totals.wireBytes == 750_000)
        #expect(read.pageBytes == 20_000 && read.origin == "http://127.0.0.1:2")
        // Keys a script reads, spelt as it reads them.
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let clients = try #require(object["clients"] as? [[String: Any]])
        #expect(clients.first?["name"] as? String == "legacy-webview")
        let totals = try #require(clients.first?["totals"] as? [String: Any])
        #expect(totals["wireBytes"] as? Int == 850_000)
        let first = try #require((clients.first?["images"] as? [[String: Any]])?.first)
        #expect(first["path"] as? String == "/images/article-01.jpg" && first["wireBytes"] as? Int == 200_000)
    }

    @Test("each tuned client is set beside the bridged client sending its Accept, image by image")
    func againstFixed() throws {
        let photo = { (wire: Int) in
            result("/images/article-01.jpg", original: 900_000, wire: wire, delivered: wire, ssim: 0.95)
        }
        let logo = { (wire: Int) in result("/images/logo-a.png", original: 40_000, wire: wire, delivered: wire, ssim: 1)
        }
        let gif = { (wire: Int) in
            result("/images/scene.gif", original: 1_800_000, wire: wire, delivered: wire, ssim: 1)
        }
        var failed = photo(1)
        failed.failure = "the bridge answered 502"
        let report = DemoReport(
            clients: [
                .init(profile: .webP, images: [photo(60_000), logo(7_524), gif(215_916)], bridgeTime: .zero),
                .init(profile: .avif, images: [photo(40_000), logo(13_012), gif(215_916)], bridgeTime: .zero),
                .init(profile: .tunedWebP, images: [photo(45_000), logo(7_600), gif(96_000)], bridgeTime: .zero),
                .init(profile: .tunedAVIF, images: [photo(30_000), logo(6_510), gif(25_462)], bridgeTime: .zero),
                // A failed image (the tuned side's, here) is not compared.
                // Equal bytes are not bigger.
                .init(profile: .saveData, images: [failed, logo(6_000), gif(215_916)], bridgeTime: .zero),
                // Sized by its hints: other sizes, so not set beside a fixed client.
                .init(profile: .phone, images: [photo(90_000), logo(6_510), gif(30_000)], bridgeTime: .zero),
            ],
            pageBytes: 0, directTime: .zero, bridgeURL: "", originURL: "")
        let comparisons = report.againstFixed
        #expect(comparisons.map(\.tuned) == ["webp-tuned", "avif-tuned", "avif-save-data"])
        #expect(comparisons.map(\.fixed) == ["webp", "avif", "avif"])
        #expect(comparisons.map(\.compared) == [3, 3, 2])
        #expect(comparisons[0].bigger == [.init(path: "/images/logo-a.png", tunedBytes: 7_600, fixedBytes: 7_524)])
        #expect(comparisons[1].bigger.isEmpty && comparisons[2].bigger.isEmpty)
        #expect(
            comparisons[1].kinds == [
                .init(kind: .photo, tuned: 30_000, fixed: 40_000), .init(kind: .logo, tuned: 6_510, fixed: 13_012),
                .init(kind: .animation, tuned: 25_462, fixed: 215_916),
            ])
        #expect(comparisons[2].kinds.map(\.kind) == [.logo, .animation])
        #expect(
            report.againstFixedLines == [
                "webp-tuned against webp: 3 images, 1 bigger on the wire (/images/logo-a.png 7,600 B against 7,524 B);"
                    + " photos 45,000 B against 60,000 B, logos 7,600 B against 7,524 B,"
                    + " animations 96,000 B against 215,916 B",
                "avif-tuned against avif: 3 images, none bigger on the wire; photos 30,000 B against 40,000 B,"
                    + " logos 6,510 B against 13,012 B, animations 25,462 B against 215,916 B",
                "avif-save-data against avif: 2 images, none bigger on the wire; logos 6,000 B against 13,012 B,"
                    + " animations 215,916 B against 215,916 B",
            ])
        #expect(report.table.contains("  " + report.againstFixedLines[1] + "\n"))
        let folder = try TemporaryDirectory()
        _ = try report.writeHTML(to: folder.file("demo-report.html"))
        let html = try String(contentsOf: folder.file("demo-report.html"), encoding: .utf8)
        #expect(html.contains("<li>\(DemoPage.escape(report.againstFixedLines[0]))</li>"))
        let figures = report.figures.againstFixed
        #expect(figures.map(\.tuned) == comparisons.map(\.tuned))
        #expect(figures[0].bigger.map(\.path) == ["/images/logo-a.png"])
        #expect(figures[1].tunedBytesByKind == ["photos": 30_000, "logos": 6_510, "animations": 25_462])
        #expect(figures[1].fixedBytesByKind["logos"] == 13_012)
        // Only today's clients: nothing to set beside them, and the table says nothing of it.
        #expect(sample.againstFixed.isEmpty && !sample.table.contains("against today's settings"))
    }

    @Test("an animation's line gives the frames and type each client was handed and its wire bytes")
    func animationFrames() {
        var report = sample
        report.clients[0].images[3].deliveredType = "image/gif"
        report.clients[0].images[3].deliveredFrames = 32
        report.clients[1].images[3].deliveredType = "image/avif"
        report.clients[1].images[3].deliveredFrames = 32
        report.clients[1].images[3].wireBytes = 25_462
        #expect(
            report.animationLines == [
                "/images/live.gif: legacy-webview 32 frames as image/gif (100,000 B on the wire),"
                    + " avif 32 frames as image/avif (25,462 B on the wire)"
            ])
        report.clients[1].images[3].failure = "the bridge answered 502"
        #expect(report.animationLines[0].hasSuffix("avif - frames as image/avif (25,462 B on the wire)"))
        #expect(report.table.contains("animations (frames each client was handed):\n  /images/live.gif: "))
        #expect(report.figures.clients[0].images[3].deliveredFrames == 32)
    }

    @Test("measuring counts the frames of what the client was handed")
    func measureFrames() throws {
        let badge = DemoArtwork.liveBadge(size: 32, frameCount: 5)
        let gif = try GIFEncoder().encode(badge)
        let animated = DemoClient.measure(
            path: "/images/live.gif", original: .init(status: 200, contentType: "image/gif", body: gif),
            delivered: .init(status: 200, contentType: "image/gif", body: gif))
        #expect(animated.failure == nil && animated.deliveredFrames == 5)
        let still = DemoClient.measure(
            path: "/images/live.gif", original: .init(status: 200, contentType: "image/gif", body: gif),
            delivered: .init(
                status: 200, contentType: "image/png", body: try PNGEncoder().encode(badge.frames[0].image)))
        #expect(still.deliveredFrames == 1)
        // An AVIF sequence decodes to its first frame; its frames are counted from its headers.
        var opaque = badge
        for index in opaque.frames.indices {
            opaque.frames[index].image = DemoClient.overWhite(opaque.frames[index].image)
        }
        let sequence = try AVIFEncoder(options: .init(quality: 30, speed: 10)).encode(opaque: opaque)
        let avif = DemoClient.measure(
            path: "/images/live.gif", original: .init(status: 200, contentType: "image/gif", body: gif),
            delivered: .init(status: 200, contentType: "image/avif", body: sequence))
        #expect(avif.failure == nil && avif.deliveredFrames == 5)
    }

    @Test("measuring: the original is scaled to the delivered size before SSIM")
    func measureScaled() throws {
        let photo = SyntheticImages.photo(width: 400, height: 300, seed: 4)
        let original = try JPEGEncoder(options: .init(quality: 90)).encode(photo)
        let smaller = try ImageResizer().resize(photo, width: 200, height: 150)
        let delivered = try JPEGEncoder(options: .init(quality: 80)).encode(smaller)
        let result = DemoClient.measure(
            path: "/images/a.jpg", original: .init(status: 200, contentType: "image/jpeg", body: original),
            delivered: .init(status: 200, contentType: "image/jpeg", body: delivered))
        #expect(result.failure == nil)
        #expect(result.originalSize?.width == 400 && result.deliveredSize?.width == 200)
        #expect(result.originalBytes == original.count && result.deliveredBytes == delivered.count)
        #expect((result.ssim ?? 0) > 0.9)
        #expect((result.ssim ?? 1) < 1)
        let resized = try JPEGEncoder(options: .init(quality: 90)).encode(smaller).count
        #expect(result.resizedBytes.map { abs($0 - resized) <= resized / 10 } == true, "JPEG q90 at 200×150")
    }

    @Test("measuring: transparent images compare over white; failures are reported, not thrown")
    func measureAlphaAndFailures() throws {
        let logo = SyntheticImages.photo(width: 64, height: 64, seed: 2, alpha: true)
        var hidden = logo
        // Change the colour under fully transparent pixels only: nothing visible changes.
        for offset in stride(from: 0, to: hidden.pixels.count, by: 4) where hidden.pixels[offset + 3] == 0 {
            hidden.pixels[offset] = 255 - hidden.pixels[offset]
        }
        let same = DemoClient.measure(
            path: "/images/logo.png",
            original: .init(status: 200, contentType: "image/png", body: try PNGEncoder().encode(logo)),
            delivered: .init(status: 200, contentType: "image/png", body: try PNGEncoder().encode(hidden)))
        #expect(same.ssim == 1)

        let missing = DemoClient.measure(
            path: "/images/x.jpg", original: .init(status: 200, contentType: "image/jpeg", body: Data()),
            delivered: .init(status: 502, contentType: "text/plain", body: Data("upstream failed".utf8)))
        #expect(missing.failure == "the bridge answered 502")
        let garbage = DemoClient.measure(
            path: "/images/x.jpg",
            original: .init(status: 200, contentType: "image/jpeg", body: try PNGEncoder().encode(logo)),
            delivered: .init(status: 200, contentType: "image/jpeg", body: Data("<html>".utf8)))
        #expect(garbage.failure?.hasPrefix("the delivered image does not decode") == true)
    }

    @Test("the page scanner finds images, stylesheets and scripts once each, in order")
    func references() {
        let html = """
            <link rel="icon" href="/favicon.ico"><LINK REL="stylesheet" href='/a.css'>
            <img alt="x" src="/images/1.jpg?imageView2/2/w/10&amp;v=1"><img src="/images/2.png" width=3>
            <script src="/a.js" defer></script><img src="/images/1.jpg?imageView2/2/w/10&amp;v=1"><script>var x</script>
            """
        let references = DemoPageReferences(html: html)
        #expect(references.images == ["/images/1.jpg?imageView2/2/w/10&v=1", "/images/2.png"])
        #expect(references.stylesheets == ["/a.css"])
        #expect(references.scripts == ["/a.js"])
    }
}
