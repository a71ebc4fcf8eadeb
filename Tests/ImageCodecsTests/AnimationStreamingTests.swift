import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Animations converted frame by frame (``AnimationReader`` into the APNG
/// and WebP encoders) give the bytes the all-at-once path gives, and the
/// limits an output or a transcode needs are checked from the headers.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct AnimationStreamingTests {
    static let opaque = SyntheticImages.animation(width: 48, height: 32, frameCount: 5, loopCount: 3)

    /// The same animation as WebP (lossless), GIF and APNG.
    static func sources() throws -> [(String, Data)] {
        [
            ("webp", try WebPEncoder(options: .init(lossless: true)).encode(opaque)),
            ("gif", try GIFEncoder().encode(opaque)),
            ("apng", try APNGEncoder().encode(opaque)),
        ]
    }

    @Test func streamedAPNGIsTheAllAtOnceAPNG() throws {
        for (name, data) in try Self.sources() {
            let reader = try #require(try AnimationReader(data), "\(name)")
            #expect(reader.frameCount == 5 && reader.loopCount == 3, "\(name)")
            guard case .animated(let whole) = try ImageDecoder().decode(data) else {
                Issue.record("\(name) did not decode as an animation")
                continue
            }
            #expect(try APNGEncoder().encode(reader) == APNGEncoder().encode(whole), "\(name)")
            #expect(try WebPEncoder().encode(reader) == WebPEncoder().encode(whole), "\(name)")
            #expect(try GIFEncoder().encode(reader) == GIFEncoder().encode(whole), "\(name)")
            #expect(try reader.firstFrame() == whole.frames[0].image, "\(name)")
        }
    }

    /// A frame with transparency after opaque ones: the stream starts over in RGBA.
    @Test func aTransparentFrameAfterOpaqueOnesRestartsInRGBA() throws {
        var frames = Self.opaque.frames
        frames[3].image.pixels[7] = 0
        let animation = AnimatedImage(canvasWidth: 48, canvasHeight: 32, frames: frames, loopCount: 0)
        let webp = try WebPEncoder(options: .init(lossless: true)).encode(animation)
        let reader = try #require(try AnimationReader(webp))
        let streamed = try APNGEncoder().encode(reader)
        #expect(try APNGDecoder().decode(streamed).frames.map(\.image.pixels) == frames.map(\.image.pixels))
        #expect(streamed == (try APNGEncoder().encode(animation)))
        #expect(try GIFEncoder().encode(reader) == GIFEncoder().encode(animation))
    }

    @Test func stillImagesHaveNoReader() throws {
        let still = SyntheticImages.photo(width: 16, height: 16)
        #expect(try AnimationReader(JPEGEncoder().encode(still)) == nil)
        #expect(try AnimationReader(PNGEncoder().encode(still)) == nil)
        #expect(try AnimationReader(WebPEncoder().encode(still)) == nil)
        #expect(try AnimationReader(GIFEncoder().encode(still)) == nil)
    }

    @Test func readerLimitsAreCheckedFromTheHeaders() throws {
        let webp = try SyntheticAnimatedWebP.make(canvasWidth: 1000, canvasHeight: 1000, frameCount: 101)
        let error = try #require(throws: ImageCodecError.self) {
            _ = try AnimationReader(webp, limits: .init(maxTotalPixels: 100_000_000))
        }
        #expect(error.kind == .limitExceeded)
    }

    /// The proxy's transcodes stop at 100 megapixels an animation (100 frames of 1000×1000).
    @Test func transcoderRefusesAnAnimationOverItsTotal() throws {
        #expect(Transcoder.Configuration().limits.maxTotalPixels == 100_000_000)
        let webp = try SyntheticAnimatedWebP.make(canvasWidth: 1000, canvasHeight: 1000, frameCount: 101)
        let error = try #require(throws: ImageCodecError.self) {
            _ = try Transcoder(codec: CImageCodec()).transcode(webp, for: Transcoder.withoutWebP)
        }
        #expect(error.kind == .limitExceeded)
        let small = try SyntheticAnimatedWebP.make(canvasWidth: 100, canvasHeight: 100, frameCount: 100)
        let output = try Transcoder(codec: CImageCodec()).transcode(small, for: Transcoder.withoutWebP)
        #expect(output.format == .apng)
        #expect(try ImageInfo(output.data).frames == 100)
    }

    /// An encoder that starts over on a translucent frame still hands a
    /// transform's own error to its caller, unchanged and typed.
    @Test func aTransformsErrorReachesTheCallerTyped() throws {
        let refusal = ImageCodecError(.limitExceeded, format: nil, "frame 4 refused by the test")
        var frames = Self.opaque.frames
        frames[3].image.pixels[7] = 0
        let animation = AnimatedImage(canvasWidth: 48, canvasHeight: 32, frames: frames, loopCount: 0)
        // Refused after the translucent frame 3 has made APNG and GIF start over.
        let refused = frames[4].image
        #expect(refused != frames[3].image)
        let mapped = MappedAnimation(animation, canvasWidth: 48, canvasHeight: 32) { image throws(ImageCodecError) in
            if image == refused { throw refusal }
            return image
        }
        // Typed all the way: these closures do not compile if an encoder's error is `any Error`.
        let encoders: [(String, () throws(ImageCodecError) -> Data)] = [
            ("apng", { () throws(ImageCodecError) in try APNGEncoder().encode(mapped) }),
            ("gif", { () throws(ImageCodecError) in try GIFEncoder().encode(mapped) }),
            ("webp", { () throws(ImageCodecError) in try WebPEncoder().encode(mapped) }),
        ]
        for (name, encode) in encoders {
            #expect(throws: refusal, "\(name)") { try encode() }
        }
    }

    @Test func outputBoundsAreTheFormats() {
        #expect(ImageFormat.webp.maxEncodableDimension == 16_383)
        #expect(throws: ImageCodecError.self) { try ImageFormat.webp.checkEncodable(width: 245, height: 65_537) }
        #expect(throws: ImageCodecError.self) { try ImageFormat.jpeg.checkEncodable(width: 65_536, height: 1) }
        #expect(throws: Never.self) { try ImageFormat.png.checkEncodable(width: 245, height: 65_537) }
    }
}
