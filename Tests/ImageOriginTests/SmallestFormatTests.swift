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

    /// A source as a row names it: format, frames, loops (0: forever), alpha.
    struct Source: Sendable, CustomTestStringConvertible {
        var format: ImageFormat
        var frames = 1
        var loopCount = 0
        var alpha = false

        var info: ImageInfo {
            ImageInfo(
                format: format, width: 8, height: 8, alpha: alpha, frames: frames, loopCount: loopCount, bytes: 1)
        }
        var testDescription: String { "\(format) \(frames) frame(s) loop \(loopCount) alpha \(alpha)" }
    }

    @Test(arguments: [
        ([ImageFormat.avif, .webp], Source(format: .jpeg), [ImageFormat.avif], [ImageFormat.avif]),
        ([.webp, .avif], Source(format: .jpeg), [.webp], [.webp]),
        ([.avif, .webp], Source(format: .png), [.avif, .webp], [.avif, .webp]),
        ([.avif, .webp], Source(format: .gif), [.avif, .webp], [.avif, .webp]),
        ([.avif, .webp], Source(format: .gif, frames: 4), [.webp], [.avif, .webp]),
        ([.avif], Source(format: .gif, frames: 4), [], [.avif]),
        ([.avif, .webp], Source(format: .gif, frames: 4, loopCount: 3), [.webp], [.webp]),
        ([.avif, .webp], Source(format: .gif, frames: 4, alpha: true), [.webp], [.webp]),
        ([.avif], Source(format: .apng, frames: 4, alpha: true), [], []),
        ([.avif, .webp], Source(format: .webp), [.avif, .webp], [.avif, .webp]),
        ([.avif, .webp], Source(format: .heic), [.avif], [.avif]),
    ])
    func whichFormatsAreTried(
        formats: [ImageFormat], source: Source, tried: [ImageFormat], withSequences: [ImageFormat]
    ) {
        #expect(ImageTransformer.formatsTried(from: formats, source: source.info, sequences: false) == tried)
        #expect(ImageTransformer.formatsTried(from: formats, source: source.info, sequences: true) == withSequences)
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

    /// Naming AVIF does not promise animating it (web-platform-tests/interop#182): by default an
    /// animation is offered as WebP only, as before sequences; a URL that asks for AVIF gets one.
    @Test func byDefaultAnAnimatedGIFBecomesAnAnimatedWebPOrStaysAGIF() async throws {
        let origin = try fixture.origin { $0.autoFormat = true }
        let both = await origin.get("/anim.gif", headers: ["Accept": Self.both])
        #expect(both.status == .ok && both.headers["Content-Type"] == "image/webp")
        #expect(try ImageInfo(both.bodyData).frames == 4)
        let avifOnly = await origin.get("/anim.gif", headers: ["Accept": "image/avif"])
        #expect(avifOnly.headers["Content-Type"] == "image/gif")
        let asked = await origin.get("/anim.gif?imageView2/2/w/120/format/avif")
        let askedFrames = try ImageInfo(asked.bodyData).frames
        #expect(asked.headers["Content-Type"] == "image/avif" && askedFrames == 4)
    }

    @Test func anAnimatedGIFBecomesTheSmallerOfItsAVIFSequenceAndItsAnimatedWebPOrStaysAGIF() async throws {
        let origin = try fixture.origin {
            $0.autoFormat = true
            $0.transformer.negotiatesAVIFSequences = true
        }
        let both = await origin.get("/anim.gif", headers: ["Accept": Self.both])
        let webpOnly = await origin.get("/anim.gif", headers: ["Accept": "image/webp"])
        let avifOnly = await origin.get("/anim.gif", headers: ["Accept": "image/avif"])
        #expect(both.status == .ok && webpOnly.status == .ok && avifOnly.status == .ok)
        #expect(webpOnly.headers["Content-Type"] == "image/webp" && avifOnly.headers["Content-Type"] == "image/avif")
        for answer in [both, webpOnly, avifOnly] {
            #expect(try ImageInfo(answer.bodyData).frames == 4, "still animated")
            #expect(answer.headers["Vary"] == "Accept")
        }
        #expect(both.bodyData.count == min(webpOnly.bodyData.count, avifOnly.bodyData.count))
        let sequence = try AVIFDecoder().decodeAnimation(avifOnly.bodyData)
        #expect(sequence.frames.map(\.durationMilliseconds) == [80, 90, 100, 110])
        let legacy = await origin.get("/anim.gif", headers: ["Accept": "image/png,image/*;q=0.8"])
        let gif = try fixture.data("anim.gif")
        #expect(legacy.headers["Content-Type"] == "image/gif" && legacy.bodyData == gif)
    }

    /// An AVIF sequence plays forever and leaves aom's real-time mode with
    /// alpha: a GIF that plays three times, or declares a transparent
    /// index, is not made one; an AVIF-only client gets the GIF.
    @Test(arguments: [
        ("thrice.gif", SyntheticImages.animation(width: 64, height: 48, frameCount: 3, loopCount: 3)),
        ("clear.gif", Self.translucent(SyntheticImages.animation(width: 64, height: 48, frameCount: 3))),
    ])
    func anAnimationASequenceCannotHoldStaysWebPOrGIF(name: String, animation: AnimatedImage) async throws {
        let gif = try GIFEncoder().encode(animation)
        try gif.write(to: fixture.root.appendingPathComponent(name))
        let origin = try fixture.origin {
            $0.autoFormat = true
            $0.transformer.negotiatesAVIFSequences = true
        }
        let both = await origin.get("/\(name)", headers: ["Accept": Self.both])
        let frames = try ImageInfo(both.bodyData).frames
        #expect(both.headers["Content-Type"] == "image/webp" && frames == 3)
        let avifOnly = await origin.get("/\(name)", headers: ["Accept": "image/avif"])
        #expect(avifOnly.headers["Content-Type"] == "image/gif" && avifOnly.bodyData == gif)
    }

    static func translucent(_ animation: AnimatedImage) -> AnimatedImage {
        var animation = animation
        animation.frames[0].image.pixels[3] = 0
        animation.frames[0].image.hasAlpha = true
        return animation
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
