import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The fast luma SSIM the quality search runs on: exact where it must be,
/// ordered as the reference SSIM is, never a crash on odd sizes.
@Suite("FastSSIM", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct FastSSIMTests {
    @Test("identical images score 1, and the score is symmetric")
    func identical() throws {
        let image = LumaPlane(SyntheticImages.photo(width: 50, height: 40))
        #expect(try FastSSIM.score(image, image) == 1)
        let blurred = LumaPlane(Distortion.boxBlurred(SyntheticImages.photo(width: 50, height: 40)))
        #expect(abs(try FastSSIM.score(image, blurred) - FastSSIM.score(blurred, image)) < 1e-6)
    }

    @Test("more distortion scores lower, at one scale and at two, as the reference SSIM says")
    func ordering() throws {
        let image = SyntheticImages.photo(width: 96, height: 64, seed: 5)
        let blurred = Distortion.boxBlurred(image)
        let twiceBlurred = Distortion.boxBlurred(blurred)
        for scales in 1...3 {
            let once = try FastSSIM.score(LumaPlane(image), LumaPlane(blurred), scales: scales)
            let twice = try FastSSIM.score(LumaPlane(image), LumaPlane(twiceBlurred), scales: scales)
            #expect(once < 1 && twice < once, "scales \(scales): \(once), \(twice)")
        }
        let quantized = Distortion.quantized(image)
        let fastOrder =
            try FastSSIM.score(LumaPlane(image), LumaPlane(quantized))
            < FastSSIM.score(LumaPlane(image), LumaPlane(blurred))
        let referenceOrder = try SSIM.luma(image, quantized) < SSIM.luma(image, blurred)
        #expect(fastOrder == referenceOrder)
    }

    @Test("encodes at rising WebP quality score higher")
    func risesWithQuality() throws {
        let image = SyntheticImages.photo(width: 160, height: 120, seed: 3)
        var scores: [Double] = []
        for quality in [10, 40, 70, 95] {
            let encoded = try WebPEncoder(options: .init(quality: Float(quality))).encode(image)
            scores.append(try FastSSIM.score(LumaPlane(image), LumaPlane(WebPDecoder().decode(encoded))))
        }
        #expect(scores == scores.sorted() && Set(scores).count == scores.count, "\(scores)")
    }

    @Test("sizes that differ are invalid; planes smaller than the window compare exactly")
    func oddSizes() throws {
        let error = #expect(throws: ImageCodecError.self) {
            try FastSSIM.score(
                LumaPlane(width: 20, height: 20, samples: [UInt8](repeating: 0, count: 400)),
                LumaPlane(width: 20, height: 21, samples: [UInt8](repeating: 0, count: 420)))
        }
        #expect(error?.kind == .invalidArgument)
        for (width, height) in [(1, 1), (6, 100), (100, 6), (7, 7), (13, 9)] {
            let count = width * height
            let zero = LumaPlane(width: width, height: height, samples: [UInt8](repeating: 0, count: count))
            let full = LumaPlane(width: width, height: height, samples: [UInt8](repeating: 255, count: count))
            #expect(try FastSSIM.score(zero, zero) == 1)
            let apart = try FastSSIM.score(zero, full)
            #expect(apart < 0.01, "\(width)x\(height): \(apart)")
        }
    }

    @Test("alpha premultiplies luma: colour under transparent pixels does not count")
    func transparentColourIgnored() throws {
        var first = Image(width: 32, height: 32, filledWith: (200, 10, 10, 0))
        var second = Image(width: 32, height: 32, filledWith: (10, 200, 10, 0))
        #expect(try FastSSIM.score(LumaPlane(first), LumaPlane(second)) == 1)
        first.pixels[3] = 255
        second.pixels[3] = 255
        #expect(try FastSSIM.score(LumaPlane(first), LumaPlane(second)) < 1)
    }

    @Test("a JPEG's limited-range Y plane maps back to the luma of the same pixels")
    func yPlaneMatchesRGBLuma() throws {
        let image = SyntheticImages.photo(width: 64, height: 48, seed: 2)
        let rgb = LumaPlane(image)
        // Limited range as the planar path holds it: 16 + 219/255 of full range.
        let limited = rgb.samples.map { UInt8((Int($0) * 219 + 127) / 255 + 16) }
        let chroma = [UInt8](repeating: 128, count: 32 * 24)
        let planes = YUV420Image(width: 64, height: 48, y: limited, u: chroma, v: chroma)
        let mapped = LumaPlane(planes)
        let largest = zip(mapped.samples, rgb.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1)
        #expect(try FastSSIM.score(rgb, mapped) > 0.999)
    }
}
