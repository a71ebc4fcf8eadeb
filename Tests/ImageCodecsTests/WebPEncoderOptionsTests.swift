import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `exact`, `allowMixed` and `keyFramesOnly`, on generated images: runs without the corpus.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WebPEncoderOptionsTests {
    /// Noise whose left half is fully transparent: RGB there that no one sees.
    static func halfTransparentNoise(width: Int, height: Int) -> Image {
        var state: UInt32 = 7
        var pixels = (0..<(width * height * 4)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        for pixel in 0..<(width * height) { pixels[pixel * 4 + 3] = pixel % width < width / 2 ? 0 : 255 }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: true)
    }

    @Test func losslessWithoutExactDropsHiddenRGBAndKeepsEveryVisiblePixel() throws {
        let image = Self.halfTransparentNoise(width: 64, height: 32)
        var options = WebPEncoder.Options(lossless: true)
        let exact = try WebPEncoder(options: options).encode(image)
        options.exact = false
        let flattened = try WebPEncoder(options: options).encode(image)
        #expect(flattened.count < exact.count)
        #expect(try WebPDecoder().decode(exact) == image)
        let decoded = try WebPDecoder().decode(flattened)
        for pixel in 0..<image.pixelCount where image.pixels[pixel * 4 + 3] == 255 {
            #expect(decoded.pixels[(pixel * 4)..<(pixel * 4 + 4)] == image.pixels[(pixel * 4)..<(pixel * 4 + 4)])
        }
    }

    /// Flat colours with hard edges: lossless frames win, so the mixed
    /// animation is smaller than the lossy one, and still plays every frame.
    @Test func allowMixedLetsFlatFramesGoLossless() throws {
        let frames = (0..<4).map { index in
            var image = Image(width: 80, height: 40, filledWith: (255, 255, 255, 255))
            for y in 0..<40 {
                for x in 0..<80 where (x / 4 + y / 4 + index) % 2 == 0 {
                    image.pixels.replaceSubrange((y * 80 + x) * 4..<((y * 80 + x) * 4 + 3), with: [0, 0, 200])
                }
            }
            return AnimatedImage.Frame(image: image, durationMilliseconds: 50)
        }
        let animation = AnimatedImage(canvasWidth: 80, canvasHeight: 40, frames: frames, loopCount: 0)
        var options = WebPEncoder.Options(quality: 80)
        let lossy = try WebPEncoder(options: options).encode(animation)
        options.allowMixed = true
        let mixed = try WebPEncoder(options: options).encode(animation)
        #expect(mixed.count < lossy.count)
        let decoded = try WebPDecoder().decodeAnimation(mixed)
        #expect(decoded.frames.count == 4)
        #expect(decoded.frames.map(\.image) == frames.map(\.image), "lossless frames are exact")
    }

    /// The mean of the red, green and blue values of the left half of `image`.
    static func meanLevelOfTheLeftHalf(_ image: Image) -> Double {
        var (sum, count) = (0, 0)
        for y in 0..<image.height {
            for x in 0..<(image.width / 2) {
                for channel in 0..<3 { sum += Int(image.pixels[(y * image.width + x) * 4 + channel]) }
                count += 3
            }
        }
        return Double(sum) / Double(count)
    }

    /// A left half brightening 2 levels a frame beside a right half that is
    /// new every frame: at q60 libwebp's changed rectangles take the slow
    /// half's changes for none, so the last frame shows it far darker than
    /// its source; whole frames show every frame as it is.
    @Test func keyFramesOnlyStopsASlowFadeFromDrifting() throws {
        let fade = SyntheticImages.fade(width: 96, height: 64, frameCount: 16, step: 2)
        var options = WebPEncoder.Options(quality: 60)
        let rectangles = try WebPDecoder().decodeAnimation(WebPEncoder(options: options).encode(fade))
        options.keyFramesOnly = true
        let whole = try WebPDecoder().decodeAnimation(WebPEncoder(options: options).encode(fade))
        let source = Self.meanLevelOfTheLeftHalf(try #require(fade.frames.last).image)
        let drifted = Self.meanLevelOfTheLeftHalf(try #require(rectangles.frames.last).image)
        let kept = Self.meanLevelOfTheLeftHalf(try #require(whole.frames.last).image)
        #expect(source - drifted > 10, "the default drifts: \(drifted) against \(source)")
        #expect(abs(source - kept) < 2, "whole frames: \(kept) against \(source)")
        #expect(rectangles.frames.count == fade.frames.count && whole.frames.count == fade.frames.count)
    }
}
