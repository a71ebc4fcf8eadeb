import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// WebP encode/decode on generated images: runs without the corpus.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WebPCodecTests {
    let photo = SyntheticImages.photo(width: 97, height: 61)
    let translucent = SyntheticImages.photo(width: 64, height: 48, seed: 2, alpha: true)

    @Test func lossyRoundTripKeepsSizeAndOpacity() throws {
        let data = try WebPEncoder().encode(photo)
        #expect(try ImageFormat.sniff(data) == .webp)
        let features = try WebPFeatures(data)
        #expect(features.width == 97 && features.height == 61)
        #expect(!features.hasAlpha)
        #expect(features.compression == .lossy)
        let decoded = try WebPDecoder().decode(data)
        #expect(decoded.width == 97 && decoded.height == 61)
        #expect(decoded.isOpaque)
    }

    @Test func threadsDoNotChangeTheBytesAndSharpYUVDoes() throws {
        let plain = try WebPEncoder(options: .init(quality: 80)).encode(photo)
        let threaded = try WebPEncoder(options: .init(quality: 80, usesThreads: true)).encode(photo)
        let sharp = try WebPEncoder(options: .init(quality: 80, usesSharpYUV: true)).encode(photo)
        #expect(threaded == plain)
        #expect(sharp != plain)
        #expect(try WebPFeatures(sharp).compression == .lossy)
        #expect(try WebPDecoder().decode(sharp).width == 97)
    }

    @Test func losslessRoundTripIsBitExactIncludingAlpha() throws {
        var image = translucent
        // A fully transparent pixel with colour: `exact` must keep its RGB.
        image.pixels[0...3] = [200, 100, 50, 0]
        let data = try WebPEncoder(options: .init(lossless: true)).encode(image)
        #expect(try WebPFeatures(data).compression == .lossless)
        let decoded = try WebPDecoder().decode(data)
        #expect(decoded.pixels == image.pixels)
        #expect(decoded.hasAlpha)
    }

    @Test func alphaIsOnlyWrittenWhenSomePixelIsTransparent() throws {
        var opaqueButDeclared = photo
        opaqueButDeclared.hasAlpha = true
        #expect(try !WebPFeatures(WebPEncoder().encode(opaqueButDeclared)).hasAlpha)
        #expect(try WebPFeatures(WebPEncoder().encode(translucent)).hasAlpha)
    }

    @Test func animationRoundTripKeepsFramesDurationsAndLoopCount() throws {
        let animation = SyntheticImages.animation(width: 40, height: 30, frameCount: 4, loopCount: 3)
        let data = try WebPEncoder(options: .init(lossless: true)).encode(animation)
        #expect(try WebPFeatures(data).isAnimated)
        let decoded = try WebPDecoder().decodeAnimation(data)
        #expect(decoded.loopCount == 3)
        #expect(decoded.frames.count == 4)
        #expect(decoded.frames.map(\.durationMilliseconds) == animation.frames.map(\.durationMilliseconds))
        for (got, expected) in zip(decoded.frames, animation.frames) {
            #expect(got.image.pixels == expected.image.pixels)
        }
        guard case .animated = try WebPDecoder().decodeAny(data) else {
            Issue.record("decodeAny should report an animation")
            return
        }
        // A still decode of an animation is its first frame.
        #expect(try WebPDecoder().decode(data).pixels == animation.frames[0].image.pixels)
    }

    @Test func scaledDecodeFitsTheBoxAndNeverEnlarges() throws {
        let data = try WebPEncoder().encode(SyntheticImages.photo(width: 400, height: 200))
        let half = try WebPDecoder().decode(data, fittingWidth: 200, height: nil)
        #expect(half.width == 200 && half.height == 100)
        let boxed = try WebPDecoder().decode(data, fittingWidth: 300, height: 50)
        #expect(boxed.width == 100 && boxed.height == 50)
        let same = try WebPDecoder().decode(data, fittingWidth: 1000, height: 1000)
        #expect(same.width == 400 && same.height == 200)
    }

    @Test func truncatedDataSaysHowMuchWasMissing() throws {
        let data = try WebPEncoder().encode(SyntheticImages.photo(width: 300, height: 200))
        let cut = data.prefix(data.count / 2)
        let error = try #require(throws: ImageCodecError.self) { try WebPDecoder().decode(Data(cut)) }
        #expect(error.kind == .truncated)
        #expect(error.format == .webp)
        #expect(error.message == "truncated WebP: \(cut.count.formatted()) of \(data.count.formatted()) bytes")
    }

    @Test func garbageAfterTheHeaderIsCorrupt() throws {
        var data = try WebPEncoder().encode(photo)
        for index in 30..<data.count { data[index] = UInt8(truncatingIfNeeded: index &* 31) }
        let error = try #require(throws: ImageCodecError.self) { try WebPDecoder().decode(data) }
        #expect(error.kind == .corrupt || error.kind == .truncated)
    }

    @Test func limitsRejectBeforeDecoding() throws {
        let data = try WebPEncoder().encode(SyntheticImages.photo(width: 200, height: 100))
        let decoder = WebPDecoder(limits: DecodingLimits(maxPixelsPerFrame: 10_000))
        let error = try #require(throws: ImageCodecError.self) { try decoder.decode(data) }
        #expect(error.kind == .limitExceeded)
        let tooManyFrames = try WebPEncoder().encode(SyntheticImages.animation(width: 16, height: 16, frameCount: 5))
        let frameError = try #require(throws: ImageCodecError.self) {
            try WebPDecoder(limits: DecodingLimits(maxFrames: 4)).decodeAnimation(tooManyFrames)
        }
        #expect(frameError.kind == .limitExceeded)
        let bytesError = try #require(throws: ImageCodecError.self) {
            try WebPDecoder(limits: DecodingLimits(maxInputBytes: 10)).decode(data)
        }
        #expect(bytesError.kind == .limitExceeded)
    }

    @Test(arguments: [
        WebPEncoder.Options(quality: 101),
        WebPEncoder.Options(method: 7),
        WebPEncoder.Options(alphaQuality: -1),
    ])
    func invalidOptionsAreTypedErrors(_ options: WebPEncoder.Options) throws {
        let error = try #require(throws: ImageCodecError.self) { try WebPEncoder(options: options).encode(photo) }
        #expect(error.kind == .invalidArgument)
    }

    @Test func oversizedPicturesAreRefusedWithTheFormatLimit() throws {
        let wide = Image(width: 16_384, height: 1, filledWith: (1, 2, 3, 255))
        let error = try #require(throws: ImageCodecError.self) { try WebPEncoder().encode(wide) }
        #expect(error.message.contains("16,383"))
    }
}

extension Int {
    /// `82878` → `"82,878"`, as the codec's messages print byte counts.
    func formatted() -> String {
        let digits = String(self)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
