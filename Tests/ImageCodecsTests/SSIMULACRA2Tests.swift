import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The Swift SSIMULACRA 2 against the PyPI package it was written from.
///
/// The expected scores come from `ssimulacra2` 0.3.0 (PyPI, the package
/// `make demo` installs in `.build/quality-venv`), run on the same pixels
/// written as PNG: the pattern and distortions below, generated the same way
/// in NumPy, then `compute_ssimulacra2(reference, distorted)`.
@Suite("SSIMULACRA2", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct SSIMULACRA2Tests {
    /// A deterministic, busy pattern: `((5x + 3y) mod 256, xy mod 256, (x² + y) mod 256)`.
    static func pattern(width: Int, height: Int) -> Image {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8((x * 5 + y * 3) % 256), UInt8((x * y) % 256), UInt8((x * x + y) % 256), 255]
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    /// Each channel to the middle of its 32-wide band.
    static func posterized(_ image: Image) -> Image {
        var result = image
        for index in result.pixels.indices where index % 4 != 3 {
            result.pixels[index] = result.pixels[index] / 32 * 32 + 16
        }
        return result
    }

    /// A 3×3 box mean, edges clamped, rounded half up.
    static func blurred(_ image: Image) -> Image {
        var result = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                for channel in 0..<3 {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let row = min(max(y + dy, 0), image.height - 1)
                            let column = min(max(x + dx, 0), image.width - 1)
                            sum += Int(image.pixels[(row * image.width + column) * 4 + channel])
                        }
                    }
                    result.pixels[(y * image.width + x) * 4 + channel] = UInt8((sum + 4) / 9)
                }
            }
        }
        return result
    }

    /// 64×48 has three scales and 200×150 five, so these also pin how the
    /// published weights are taken when there are fewer than six.
    @Test(arguments: [
        (64, 48, "posterized", 72.05073841978493), (64, 48, "blurred", -10.508169331826025),
        (200, 150, "posterized", 63.746717014035376), (200, 150, "blurred", -37.7602972755636),
    ])
    func matchesThePackage(width: Int, height: Int, distortion: String, expected: Double) throws {
        let reference = Self.pattern(width: width, height: height)
        let distorted = distortion == "posterized" ? Self.posterized(reference) : Self.blurred(reference)
        let score = try SSIMULACRA2.score(reference, distorted)
        #expect(abs(score - expected) < 0.01, "\(width)x\(height) \(distortion): \(score), package \(expected)")
    }

    @Test func identicalScores100AndAPreparedReferenceScoresAsOneCallDoes() throws {
        let photo = SyntheticImages.photo(width: 120, height: 90)
        #expect(try SSIMULACRA2.score(photo, photo) == 100)
        let prepared = try SSIMULACRA2.Reference(photo)
        let lossy = try WebPDecoder().decode(WebPEncoder(options: .init(quality: 40)).encode(photo))
        let once = try SSIMULACRA2.score(photo, lossy)
        #expect(try prepared.score(lossy) == once && prepared.score(lossy) == once)
        #expect(once < 100 && once > 0)
        let worse = try WebPDecoder().decode(WebPEncoder(options: .init(quality: 5)).encode(photo))
        #expect(try prepared.score(worse) < once)
    }

    @Test func sizesThatDifferOrAreTooSmallAreRefused() throws {
        let photo = SyntheticImages.photo(width: 40, height: 30)
        #expect(throws: ImageCodecError.self) {
            try SSIMULACRA2.score(photo, SyntheticImages.photo(width: 30, height: 40))
        }
        let tiny = SyntheticImages.photo(width: 7, height: 30)
        #expect(throws: ImageCodecError.self) { try SSIMULACRA2.score(tiny, tiny) }
        #expect(
            try SSIMULACRA2.score(
                SyntheticImages.photo(width: 8, height: 8), SyntheticImages.photo(width: 8, height: 8)) == 100)
    }

    /// What hides under transparency never counts; what shows does, over a
    /// dark and a light background.
    @Test func transparencyIsScoredOverDarkAndLight() throws {
        var first = Image(width: 32, height: 32, filledWith: (200, 30, 30, 0))
        var second = Image(width: 32, height: 32, filledWith: (10, 200, 90, 0))
        #expect(try SSIMULACRA2.score(first, second) == 100)
        for index in stride(from: 0, to: first.pixels.count, by: 4) where index % 64 < 32 {
            first.pixels[index + 3] = 255
            second.pixels[index + 3] = 255
        }
        #expect(try SSIMULACRA2.score(first, second) < 50)
    }

    /// The memory a reference holds is what its documentation and the
    /// origin's cost model (``ImageTransformer`` charges 92 bytes a pixel
    /// for a search) say: at most 32 bytes a pixel.
    @Test func aReferenceHoldsAtMost32BytesAPixel() throws {
        let photo = SyntheticImages.photo(width: 750, height: 500)
        let reference = try SSIMULACRA2.Reference(photo)
        #expect(reference.bytes <= 32 * 750 * 500 && reference.bytes >= 20 * 750 * 500, "\(reference.bytes)")
    }
}
