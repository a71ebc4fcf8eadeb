import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// JPEG photos made into WebP through their Y′CbCr planes
/// (`JPEGDecoder.decodeYUV420`, `WebPEncoder.encode(YUV420Image)`) look as
/// the RGBA path's do, keep their colours, and take every size.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct YUVPlanePathTests {
    static let subsamplings: [JPEGEncoder.Subsampling] = [.s420, .s422, .s444, .gray]

    /// The luma plane as a grey RGBA image, back in full range, so SSIM can compare it.
    static func lumaImage(_ planes: YUV420Image) -> Image {
        var pixels = [UInt8](repeating: 255, count: planes.width * planes.height * 4)
        for (index, sample) in planes.y.enumerated() {
            let full = UInt8(max(0, min(255, (Double(sample) - 16) * 255 / 219 + 0.5)))
            pixels[index * 4] = full
            pixels[index * 4 + 1] = full
            pixels[index * 4 + 2] = full
        }
        return Image(width: planes.width, height: planes.height, pixels: pixels, hasAlpha: false)
    }

    @Test(
        .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
        arguments: subsamplings)
    func kodakPhotosLookTheSameThroughPlanes(_ subsampling: JPEGEncoder.Subsampling) throws {
        let encoder = WebPEncoder(options: .init(quality: 80))
        var rgbaScores: [Double] = []
        var planeScores: [Double] = []
        for name in Corpus.kodakNames.prefix(4) {
            let photo = try PNGDecoder().decode(Corpus.data("kodak/\(name)"))
            let jpeg = try JPEGEncoder(options: .init(quality: 90, subsampling: subsampling)).encode(photo)
            // 768 → 333 wide: an odd size, from the 1/2 DCT scale.
            let image = try JPEGDecoder().decode(jpeg, options: .init(fitting: (333, nil)))
            let planes = try #require(try JPEGDecoder().decodeYUV420(jpeg, width: image.width, height: image.height))
            #expect(planes.width == image.width && planes.height == image.height)
            // Before encoding, the two paths' luma agree closely.
            let agreement = try SSIM.luma(image, Self.lumaImage(planes))
            #expect(agreement >= 0.99, "\(name) \(subsampling): SSIM \(agreement) between the paths")
            // After encoding, the planes' WebP is as close to the source as the RGBA path's.
            let source = subsampling == .gray ? try JPEGDecoder().decode(jpeg) : photo
            let reference = try ImageResizer().resize(source, width: image.width, height: image.height)
            let fromRGBA = try encoder.encode(image)
            let fromPlanes = try encoder.encode(planes)
            rgbaScores.append(try SSIM.luma(reference, WebPDecoder().decode(fromRGBA)))
            planeScores.append(try SSIM.luma(reference, WebPDecoder().decode(fromPlanes)))
            #expect(fromPlanes.count <= fromRGBA.count * 105 / 100, "\(name) \(subsampling)")
        }
        let rgbaMean = rgbaScores.reduce(0, +) / Double(rgbaScores.count)
        let planeMean = planeScores.reduce(0, +) / Double(planeScores.count)
        #expect(planeMean >= rgbaMean - 0.002, "\(subsampling): mean SSIM \(planeMean) vs \(rgbaMean)")
    }

    /// A DCT-scaled size that is odd (746×498 at 1/2 is 373×249) pads the coded luma plane by a
    /// column and a row; sampled from the padded size, the far edge was most of a pixel off and
    /// fine detail lost 0.2 SSIM (a demo photo, 1400×1050 at 750 px, came out at 0.74).
    @Test(.enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)))
    func oddScaledSizesStayAligned() throws {
        for name in Corpus.kodakNames.prefix(4) {
            let photo = try ImageResizer().resize(
                PNGDecoder().decode(Corpus.data("kodak/\(name)")), width: 746, height: 498)
            let jpeg = try JPEGEncoder(options: .init(quality: 90, subsampling: .s420)).encode(photo)
            let image = try JPEGDecoder().decode(jpeg, options: .init(fitting: (333, nil)))
            let planes = try #require(try JPEGDecoder().decodeYUV420(jpeg, width: image.width, height: image.height))
            let agreement = try SSIM.luma(image, Self.lumaImage(planes))
            #expect(agreement >= 0.99, "\(name): SSIM \(agreement) between the paths")
        }
    }

    @Test(arguments: [
        (200, 40, 90), (30, 160, 60), (20, 40, 220), (128, 128, 128), (250, 250, 245), (8, 8, 8),
    ])
    func flatColoursKeepTheirValues(_ red: Int, _ green: Int, _ blue: Int) throws {
        let colour = (UInt8(red), UInt8(green), UInt8(blue), UInt8(255))
        let jpeg = try JPEGEncoder(options: .init(quality: 100, subsampling: .s444))
            .encode(Image(width: 64, height: 48, filledWith: colour))
        let yuv = try #require(try JPEGDecoder().decodeYUV420(jpeg, width: 31, height: 23))
        let decoded = try WebPDecoder().decode(WebPEncoder(options: .init(quality: 100)).encode(yuv))
        // The centre pixel, away from the edges' filter overshoot.
        let index = (11 * 31 + 15) * 4
        for (channel, expected) in [red, green, blue].enumerated() {
            let value = Int(decoded.pixels[index + channel])
            #expect(abs(value - expected) <= 4, "channel \(channel): \(value), expected \(expected)")
        }
    }

    @Test func greyscaleSourcesGetNeutralChroma() throws {
        let jpeg = try JPEGEncoder(options: .init(quality: 95, subsampling: .gray))
            .encode(SyntheticImages.photo(width: 90, height: 60))
        let yuv = try #require(try JPEGDecoder().decodeYUV420(jpeg, width: 45, height: 30))
        #expect(yuv.u.allSatisfy { $0 == 128 } && yuv.v.allSatisfy { $0 == 128 })
        #expect(yuv.y.count == 45 * 30 && yuv.u.count == 23 * 15)
    }

    @Test(arguments: [(1, 1), (1, 7), (61, 1), (127, 85), (128, 86), (300, 200)])
    func everySizeIsMade(_ width: Int, _ height: Int) throws {
        // 128×86 is the source's size; 300×200 enlarges.
        let jpeg = try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 128, height: 86))
        let yuv = try #require(try JPEGDecoder().decodeYUV420(jpeg, width: width, height: height))
        #expect(yuv.width == width && yuv.height == height)
        #expect(yuv.y.count == width * height && yuv.u.count == yuv.chromaWidth * yuv.chromaHeight)
        let decoded = try WebPDecoder().decode(WebPEncoder(options: .init(quality: 80)).encode(yuv))
        #expect(decoded.width == width && decoded.height == height)
    }

    @Test func turnedPhotosAreLeftToTheRGBAPath() throws {
        let upright = try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 64, height: 32))
        let tagged = JPEGFixtures.insertingExifOrientation(6, into: upright)
        #expect(try JPEGDecoder().decodeYUV420(tagged, width: 16, height: 32) == nil)
        #expect(try JPEGDecoder().decodeYUV420(upright, width: 32, height: 16) != nil)
    }

    @Test func damagedInputThrowsTypedErrors() throws {
        let jpeg = try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 64, height: 64))
        for damaged in [jpeg.prefix(jpeg.count / 2), jpeg.prefix(3), Data(repeating: 0xFF, count: 100)] {
            #expect(throws: ImageCodecError.self) {
                try JPEGDecoder().decodeYUV420(Data(damaged), width: 32, height: 32)
            }
        }
        #expect(throws: ImageCodecError.self) { try JPEGDecoder().decodeYUV420(jpeg, width: 0, height: 32) }
        let fewPixels = DecodingLimits(maxPixelsPerFrame: 1_000)
        #expect(throws: ImageCodecError.self) {
            try JPEGDecoder(limits: fewPixels).decodeYUV420(jpeg, width: 8, height: 8)
        }
    }

    @Test func losslessIsRefusedForPlanes() throws {
        let planes = YUV420Image(
            width: 3, height: 3, y: [UInt8](repeating: 100, count: 9), u: [UInt8](repeating: 128, count: 4),
            v: [UInt8](repeating: 128, count: 4))
        #expect(throws: ImageCodecError.self) { try WebPEncoder(options: .init(lossless: true)).encode(planes) }
        #expect(try WebPDecoder().decode(WebPEncoder().encode(planes)).width == 3)
    }
}
