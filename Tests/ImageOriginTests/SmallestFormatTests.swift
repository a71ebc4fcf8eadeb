import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `--auto-format` serves the smallest of the formats the client accepts
/// equally: every one tried for graphics, the preferred one for photos, and
/// only the animated WebP for an animation.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct SmallestFormatTests {
    let fixture: OriginFixture

    init() throws {
        fixture = try OriginFixture()
        try PNGEncoder().encode(VariantEncodingTests.graphic(width: 400, height: 300))
            .write(to: fixture.root.appendingPathComponent("chart.png"))
        try GIFEncoder().encode(SyntheticImages.animation(width: 120, height: 80, frameCount: 4))
            .write(to: fixture.root.appendingPathComponent("anim.gif"))
    }

    static let both = "image/avif,image/webp,*/*"

    @Test(arguments: [
        ([ImageFormat.avif, .webp], ImageFormat.jpeg, 1, [ImageFormat.avif]),
        ([.webp, .avif], .jpeg, 1, [.webp]),
        ([.avif, .webp], .png, 1, [.avif, .webp]),
        ([.avif, .webp], .gif, 1, [.avif, .webp]),
        ([.avif, .webp], .gif, 4, [.webp]),
        ([.avif], .gif, 4, []),
        ([.avif, .webp], .webp, 1, [.avif, .webp]),
        ([.avif, .webp], .heic, 1, [.avif]),
    ])
    func whichFormatsAreTried(
        formats: [ImageFormat], source: ImageFormat, frames: Int, tried: [ImageFormat]
    ) {
        #expect(ImageTransformer.formatsTried(from: formats, sourceFormat: source, frames: frames) == tried)
    }

    @Test(arguments: [
        ("image/avif,image/webp,*/*", ["image/avif", "image/webp"]),
        ("image/webp,image/avif", ["image/avif", "image/webp"]),
        ("image/avif;q=0.9,image/webp", ["image/webp"]),
        ("image/avif,image/webp;q=0.5", ["image/avif"]),
        ("image/webp,*/*", ["image/webp"]),
        ("image/*,*/*", []),
        ("image/avif;q=0.4,image/webp;q=0.4,image/jpeg", []),
    ])
    func theTiedFormatsAreTheCandidates(accept: String, expected: [String]) {
        let candidates = ["image/avif", "image/webp"]
        let tied = AcceptHeader.mostPreferred(candidates, in: accept, over: "image/jpeg").map { candidates[$0] }
        #expect(tied == expected)
        #expect(
            AcceptHeader.preferred(candidates, in: accept, over: "image/jpeg")
                == tied.first.map {
                    candidates.firstIndex(of: $0)!
                })
    }

    @Test func aGraphicGetsTheSmallerOfItsAVIFAndItsWebP() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let both = await origin.get("/chart.png", headers: ["Accept": Self.both])
        let avifOnly = await origin.get("/chart.png?imageView2/2/w/400/format/avif")
        let webpOnly = await origin.get("/chart.png", headers: ["Accept": "image/webp,*/*"])
        #expect(both.status == .ok && avifOnly.status == .ok && webpOnly.status == .ok)
        #expect(both.headers["Vary"] == "Accept")
        let smaller = min(avifOnly.bodyData.count, webpOnly.bodyData.count)
        #expect(both.bodyData.count == smaller, "AVIF \(avifOnly.bodyData.count), WebP \(webpOnly.bodyData.count)")
        // A flat three-colour chart: lossless WebP is the smaller (and that is what is asserted above).
        #expect(both.headers["Content-Type"] == "image/webp")
        #expect(ImageFormat.sniffIfImage(both.bodyData)?.mimeType == both.headers["Content-Type"])
    }

    @Test func aPhotoComesInThePreferredFormatWhateverTheTieOrder() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let both = await origin.get("/photo.jpg?imageView2/2/w/400", headers: ["Accept": Self.both])
        #expect(both.headers["Content-Type"] == "image/avif")
        let webpFirst = await origin.get("/photo.jpg?imageView2/2/w/400", headers: ["Accept": "image/webp,image/avif"])
        #expect(webpFirst.headers["Content-Type"] == "image/avif", "the same tie, in the server's order")
        #expect(webpFirst.bodyData == both.bodyData && webpFirst.headers["ETag"] == both.headers["ETag"])
    }

    @Test func anAnimatedGIFBecomesAnAnimatedWebPOrStaysAGIF() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let both = await origin.get("/anim.gif", headers: ["Accept": Self.both])
        #expect(both.status == .ok && both.headers["Content-Type"] == "image/webp")
        #expect(try ImageInfo(both.bodyData).frames == 4)
        #expect(both.headers["Vary"] == "Accept")
        let legacy = await origin.get("/anim.gif", headers: ["Accept": "image/png,image/*;q=0.8"])
        let gif = try fixture.data("anim.gif")
        #expect(legacy.headers["Content-Type"] == "image/gif" && legacy.bodyData == gif)
        let avifOnly = await origin.get("/anim.gif", headers: ["Accept": "image/avif"])
        #expect(avifOnly.headers["Content-Type"] == "image/gif", "an AVIF made here would not move")
    }

    @Test func autoWebPLeavesGIFsAlone() async throws {
        let origin = try fixture.origin { $0.autoWebP = true }
        let response = await origin.get("/anim.gif", headers: ["Accept": Self.both])
        #expect(response.headers["Content-Type"] == "image/gif" && response.headers["Vary"] == nil)
    }

    @Test func eachSetOfFormatsHasItsOwnEntryAndTag() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let both = await origin.get("/chart.png", headers: ["Accept": Self.both])
        let avifOnly = await origin.get("/chart.png", headers: ["Accept": "image/avif"])
        #expect(avifOnly.headers["Content-Type"] == "image/avif", "never a format the client did not name")
        #expect(both.headers["ETag"] != avifOnly.headers["ETag"])
    }
}
