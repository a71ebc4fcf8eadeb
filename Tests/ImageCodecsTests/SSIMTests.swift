import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Distortions that need no encoder, computed identically here and in
/// `Scripts/ssim_reference.py`.
enum Distortion {
    /// Every R, G, B value `v` becomes `v & 0xF0`.
    static func quantized(_ image: Image) -> Image {
        var out = image
        for index in out.pixels.indices where index % 4 != 3 { out.pixels[index] &= 0xF0 }
        return out
    }

    /// A 3×3 box blur per channel: `(sum of the 9 neighbours + 4) / 9`, edges clamped.
    static func boxBlurred(_ image: Image) -> Image {
        var out = image
        let width = image.width
        let height = image.height
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let sx = min(max(x + dx, 0), width - 1)
                            let sy = min(max(y + dy, 0), height - 1)
                            sum += Int(image.pixels[(sy * width + sx) * 4 + channel])
                        }
                    }
                    out.pixels[(y * width + x) * 4 + channel] = UInt8((sum + 4) / 9)
                }
            }
        }
        return out
    }
}

@Suite("SSIM", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct SSIMTests {
    @Test("identical images score 1")
    func identical() throws {
        let image = SyntheticImages.photo(width: 50, height: 40)
        #expect(abs(try SSIM.luma(image, image) - 1) < 1e-12)
    }

    @Test("more distortion scores lower")
    func ordering() throws {
        let image = SyntheticImages.photo(width: 64, height: 64, seed: 5)
        let blurred = Distortion.boxBlurred(image)
        let twiceBlurred = Distortion.boxBlurred(blurred)
        let once = try SSIM.luma(image, blurred)
        let twice = try SSIM.luma(image, twiceBlurred)
        #expect(once < 1 && twice < once)
        #expect(abs(try SSIM.luma(blurred, image) - once) < 1e-12, "symmetric")
    }

    @Test("different sizes, or smaller than the 11×11 window, are invalid arguments")
    func invalid() {
        let sizeError = #expect(throws: ImageCodecError.self) {
            try SSIM.luma(
                Image(width: 20, height: 20, filledWith: (0, 0, 0, 255)),
                Image(width: 20, height: 21, filledWith: (0, 0, 0, 255)))
        }
        #expect(sizeError?.kind == .invalidArgument)
        let small = Image(width: 10, height: 30, filledWith: (0, 0, 0, 255))
        let smallError = #expect(throws: ImageCodecError.self) { try SSIM.luma(small, small) }
        #expect(smallError?.kind == .invalidArgument)
    }
}

@Suite(
    "SSIM against scikit-image on Kodak",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct SSIMReferenceTests {
    /// Produced by `python3 Tests/ImageCodecsTests/Scripts/ssim_reference.py ../shared/corpus/kodak`
    /// with scikit-image 0.26.0 (SciPy 1.17.1, NumPy, Pillow 13.0.0):
    /// `structural_similarity(luma_a, luma_b, gaussian_weights=True, sigma=1.5,
    /// use_sample_covariance=False, data_range=255)` on float64 luma.
    static let references: [(name: String, distortion: String, ssim: Double)] = [
        ("kodim01.png", "quantized", 0.970960),
        ("kodim01.png", "blurred", 0.743688),
        ("kodim05.png", "quantized", 0.960850),
        ("kodim05.png", "blurred", 0.839208),
        ("kodim23.png", "quantized", 0.931521),
        ("kodim23.png", "blurred", 0.948059),
    ]

    @Test("distorted Kodak photos match scikit-image to 6 decimals", arguments: references)
    func distorted(reference: (name: String, distortion: String, ssim: Double)) throws {
        let image = try PNGDecoder().decode(Corpus.data("kodak/\(reference.name)"))
        let distorted = reference.distortion == "quantized" ? Distortion.quantized(image) : Distortion.boxBlurred(image)
        let ours = try SSIM.luma(image, distorted)
        #expect(
            abs(ours - reference.ssim) < 1e-5,
            "\(reference.name) \(reference.distortion): ours \(ours), scikit-image \(reference.ssim)")
    }

    @Test("two different photos match scikit-image to 6 decimals")
    func differentPhotos() throws {
        let first = try PNGDecoder().decode(Corpus.data("kodak/kodim01.png"))
        let second = try PNGDecoder().decode(Corpus.data("kodak/kodim02.png"))
        let ours = try SSIM.luma(first, second)
        #expect(abs(ours - 0.210714) < 1e-5, "ours \(ours), scikit-image 0.210714")
    }
}
