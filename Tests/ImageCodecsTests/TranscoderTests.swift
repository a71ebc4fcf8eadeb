import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct TranscoderTests {
    let transcoder = Transcoder(codec: CImageCodec())

    /// Issue 26, finding 11: an animation whose frames alone pass the
    /// servers' work budget (100 frames of 1000×1000: 100 M pixels to
    /// decode, as many to encode) is refused from its header, before a
    /// frame is decoded; the library's own defaults still take it.
    @Test func anAnimationPastTheWorkBudgetIsRefusedFromItsHeader() throws {
        let animation = try SyntheticAnimatedWebP.make(canvasWidth: 1000, canvasHeight: 1000, frameCount: 100)
        let error = #expect(throws: ImageCodecError.self) {
            try transcoder.transcode(animation, for: Transcoder.withoutWebP)
        }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("pixels of work") == true, "\(error?.message ?? "")")
        #expect(DecodingLimits.default.maxWorkPixels == .max, "a command run by hand has no work budget")
    }

    @Test func opaqueWebPBecomesJPEG() throws {
        let webp = try WebPEncoder().encode(SyntheticImages.photo(width: 120, height: 80))
        let output = try transcoder.transcode(webp, for: Transcoder.withoutWebP)
        #expect(output.format == .jpeg && output.mimeType == "image/jpeg" && output.isTranscoded)
        #expect(try ImageFormat.sniff(output.data) == .jpeg)
        #expect(try JPEGDecoder().readHeader(output.data).width == 120)
    }

    /// Damaged bytes fail with the codec's own error, and the type says so:
    /// these typed closures do not compile if an entry point throws `any Error`.
    @Test func damagedInputFailsWithATypedCodecError() throws {
        let webp = try WebPEncoder().encode(SyntheticImages.photo(width: 120, height: 80))
        let jpeg = try JPEGEncoder().encode(SyntheticImages.photo(width: 120, height: 80))
        let entries: [(String, () throws(ImageCodecError) -> Void)] = [
            (
                "transcode",
                { () throws(ImageCodecError) in _ = try transcoder.transcode(webp.prefix(40), for: [.jpeg]) }
            ),
            ("readHeader", { () throws(ImageCodecError) in _ = try JPEGDecoder().readHeader(jpeg.prefix(2)) }),
            ("decode", { () throws(ImageCodecError) in _ = try JPEGDecoder().decode(jpeg.prefix(jpeg.count / 2)) }),
            ("info", { () throws(ImageCodecError) in _ = try ImageInfo(Data("GIF8".utf8) + Data(count: 4)) }),
            ("still", { () throws(ImageCodecError) in _ = try ImageDecoder().decodeStill(webp.prefix(30)) }),
        ]
        for (name, entry) in entries {
            let error = try #require(throws: ImageCodecError.self, "\(name)") { try entry() }
            #expect(!error.message.isEmpty, "\(name)")
        }
    }

    @Test func translucentWebPBecomesPNGWithItsAlpha() throws {
        let image = SyntheticImages.photo(width: 64, height: 64, alpha: true)
        let webp = try WebPEncoder(options: .init(lossless: true)).encode(image)
        let output = try transcoder.transcode(webp, for: Transcoder.withoutWebP)
        #expect(output.format == .png)
        #expect(try PNGDecoder().decode(output.data).pixels == image.pixels)
    }

    @Test func alphaIsDecidedByThePixelsNotTheDeclaration() throws {
        // A lossless WebP that declares alpha but is fully opaque goes to JPEG.
        var opaque = SyntheticImages.photo(width: 32, height: 32)
        opaque.pixels[3] = 254
        let declared = try WebPEncoder(options: .init(lossless: true)).encode(opaque)
        #expect(try WebPFeatures(declared).hasAlpha)
        #expect(try transcoder.transcode(declared, for: Transcoder.withoutWebP).format == .png)
        opaque.pixels[3] = 255
        let plain = try WebPEncoder(options: .init(lossless: true)).encode(opaque)
        #expect(try transcoder.transcode(plain, for: Transcoder.withoutWebP).format == .jpeg)
    }

    @Test func animatedWebPBecomesAPNGWithTheSameFrames() throws {
        let animation = SyntheticImages.animation(width: 48, height: 32, frameCount: 3, loopCount: 2)
        let webp = try WebPEncoder(options: .init(lossless: true)).encode(animation)
        let output = try transcoder.transcode(webp, for: Transcoder.withoutWebP)
        #expect(output.format == .apng && output.mimeType == "image/apng")
        let decoded = try APNGDecoder().decode(output.data)
        #expect(differingFrames(decoded, animation).isEmpty)
        #expect(decoded.frames.map(\.durationMilliseconds) == animation.frames.map(\.durationMilliseconds))
        #expect(decoded.loopCount == 2)
    }

    @Test func whatTheConsumerCanShowIsReturnedUntouched() throws {
        let webp = try WebPEncoder().encode(SyntheticImages.photo(width: 20, height: 20))
        let output = try transcoder.transcode(webp, for: [.webp, .jpeg])
        #expect(output.data == webp && !output.isTranscoded && output.format == .webp)
        let jpeg = try JPEGEncoder().encode(SyntheticImages.photo(width: 20, height: 20))
        // `ignore-error/1` may answer a WebP request with JPEG: sniffed, passed through.
        #expect(try transcoder.transcode(jpeg, for: Transcoder.withoutWebP).data == jpeg)
    }

    @Test func undecodableInputAndImpossibleTargetsAreTypedErrors() throws {
        let html = Data("<html>not an image</html>".utf8)
        let unknown = try #require(throws: ImageCodecError.self) {
            try transcoder.transcode(html, for: Transcoder.withoutWebP)
        }
        #expect(unknown.kind == .unknownFormat)
        let webp = try WebPEncoder().encode(SyntheticImages.photo(width: 20, height: 20))
        let truncated = try #require(throws: ImageCodecError.self) {
            try transcoder.transcode(webp.prefix(webp.count - 10), for: Transcoder.withoutWebP)
        }
        #expect(truncated.kind == .truncated)
        let impossible = try #require(throws: ImageCodecError.self) { try transcoder.transcode(webp, for: [.gif]) }
        #expect(impossible.kind == .unsupported)
    }

    @Test(.enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)))
    func animatedCorpusWebPToAPNGGivesTheSameFrames() throws {
        let webp = try Corpus.data("edge/iss634.webp")
        let frames = try WebPDecoder().decodeAnimation(webp)
        let output = try transcoder.transcode(webp, for: Transcoder.withoutWebP)
        #expect(output.format == .apng)
        let decoded = try APNGDecoder().decode(output.data)
        #expect(decoded.frames.count == 42)
        #expect(differingFrames(decoded, frames).isEmpty)
        #expect(decoded.frames.map(\.durationMilliseconds) == frames.frames.map(\.durationMilliseconds))
    }
}

/// Indices of frames whose pixels differ (compared without printing pixels).
func differingFrames(_ first: AnimatedImage, _ second: AnimatedImage) -> [Int] {
    guard first.frames.count == second.frames.count else { return [-1] }
    return first.frames.indices.filter { first.frames[$0].image.pixels != second.frames[$0].image.pixels }
}
