import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Quality and exactness on the 24 Kodak photos.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct KodakRoundTripTests {
    static let photos = Corpus.kodakNames

    @Test func allTwentyFourPhotosArePresent() {
        #expect(Self.photos.count == 24)
    }

    @Test(arguments: photos)
    func lossyWebPAtQuality75KeepsSSIMAbove090(_ name: String) throws {
        let source = try PNGDecoder().decode(Corpus.data("kodak/\(name)"))
        let webp = try WebPEncoder(options: .init(quality: 75)).encode(source)
        let decoded = try WebPDecoder().decode(webp)
        let ssim = try SSIM.luma(source, decoded)
        #expect(ssim >= 0.90, "\(name): SSIM \(ssim)")
        #expect(webp.count < source.pixelCount * 3 / 4, "\(name): a q75 WebP should be far below 6 bits a pixel")
    }

    @Test(arguments: photos)
    func losslessWebPIsBitExact(_ name: String) throws {
        let source = try PNGDecoder().decode(Corpus.data("kodak/\(name)"))
        let decoded = try WebPDecoder().decode(WebPEncoder(options: .init(method: 0, lossless: true)).encode(source))
        #expect(decoded.pixels == source.pixels)
    }
}
