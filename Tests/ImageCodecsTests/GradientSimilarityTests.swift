import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The gradient similarity, measured against SSIMULACRA 2 for the quality search (which uses SSIMULACRA 2 itself).
@Suite("GradientSimilarity", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct GradientSimilarityTests {
    @Test("identical images score 1, and the score is symmetric")
    func identical() throws {
        let image = LumaPlane(SyntheticImages.photo(width: 50, height: 40))
        #expect(try GradientSimilarity.score(image, image) == 1)
        let blurred = LumaPlane(Distortion.boxBlurred(SyntheticImages.photo(width: 50, height: 40)))
        #expect(abs(try GradientSimilarity.score(image, blurred) - GradientSimilarity.score(blurred, image)) < 1e-6)
    }

    @Test("more blur scores lower; encodes at rising WebP quality score higher")
    func ordering() throws {
        // Texture over the smooth synthetic photo, whose gradients alone are below the constant.
        var image = SyntheticImages.photo(width: 160, height: 120, seed: 3)
        var state: UInt32 = 12_345
        for index in image.pixels.indices where index % 4 != 3 {
            state = state &* 1_103_515_245 &+ 12_345
            image.pixels[index] = UInt8(clamping: Int(image.pixels[index]) + Int(state >> 16 & 63) - 32)
        }
        let blurred = Distortion.boxBlurred(image)
        let once = try GradientSimilarity.score(LumaPlane(image), LumaPlane(blurred))
        let twice = try GradientSimilarity.score(LumaPlane(image), LumaPlane(Distortion.boxBlurred(blurred)))
        #expect(once < 1 && twice < once, "\(once), \(twice)")
        var scores: [Double] = []
        for quality in [10, 40, 70, 95] {
            let encoded = try WebPEncoder(options: .init(quality: Float(quality))).encode(image)
            scores.append(try GradientSimilarity.score(LumaPlane(image), LumaPlane(WebPDecoder().decode(encoded))))
        }
        #expect(scores == scores.sorted() && Set(scores).count == scores.count, "\(scores)")
    }

    @Test("sizes that differ are invalid; planes too small for a gradient compare exactly")
    func oddSizes() throws {
        let error = #expect(throws: ImageCodecError.self) {
            try GradientSimilarity.score(
                LumaPlane(width: 20, height: 20, samples: [UInt8](repeating: 0, count: 400)),
                LumaPlane(width: 20, height: 21, samples: [UInt8](repeating: 0, count: 420)))
        }
        #expect(error?.kind == .invalidArgument)
        for (width, height) in [(1, 1), (5, 100), (100, 5), (6, 6), (7, 13)] {
            let count = width * height
            let zero = LumaPlane(width: width, height: height, samples: [UInt8](repeating: 0, count: count))
            var edge = zero
            for index in 0..<count where index % width >= width / 2 { edge.samples[index] = 255 }
            #expect(try GradientSimilarity.score(zero, zero) == 1)
            #expect(try GradientSimilarity.score(zero, edge) < 1, "\(width)x\(height)")
        }
    }
}
