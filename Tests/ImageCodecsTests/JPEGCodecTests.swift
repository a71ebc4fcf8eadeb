import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct JPEGCodecTests {
    let photo = SyntheticImages.photo(width: 320, height: 200)

    @Test func roundTripKeepsSizeAndIsOpaque() throws {
        let data = try JPEGEncoder().encode(photo)
        #expect(try ImageFormat.sniff(data) == .jpeg)
        let header = try JPEGDecoder().readHeader(data)
        #expect(header.width == 320 && header.height == 200 && header.colorSpace == .ycbcr)
        let decoded = try JPEGDecoder().decode(data)
        #expect(decoded.width == 320 && decoded.height == 200 && decoded.isOpaque && !decoded.hasAlpha)
    }

    @Test func progressiveAndSubsamplingOptionsProduceValidFiles() throws {
        for subsampling in [JPEGEncoder.Subsampling.s420, .s422, .s444] {
            let data = try JPEGEncoder(options: .init(quality: 80, subsampling: subsampling, progressive: true))
                .encode(photo)
            #expect(try JPEGDecoder().decode(data).width == 320)
        }
    }

    @Test func dctScalingThenExactResizeFitsTheBox() throws {
        let data = try JPEGEncoder().encode(SyntheticImages.photo(width: 800, height: 400))
        let decoded = try JPEGDecoder().decode(data, options: .init(fitting: (width: 300, height: nil)))
        #expect(decoded.width == 300 && decoded.height == 150)
    }

    @Test func translucentImagesAreCompositedOverWhite() throws {
        let clear = Image(width: 8, height: 8, filledWith: (0, 0, 0, 0))
        let decoded = try JPEGDecoder().decode(JPEGEncoder().encode(clear))
        #expect(decoded.pixels.allSatisfy { $0 >= 250 })
    }

    @Test func truncatedAndGarbageInputAreTypedErrors() throws {
        let data = try JPEGEncoder().encode(photo)
        let truncated = try #require(throws: ImageCodecError.self) {
            try JPEGDecoder().decode(data.prefix(data.count / 2))
        }
        #expect(truncated.kind == .truncated)
        let garbage = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 7, count: 100))
        let corrupt = try #require(throws: ImageCodecError.self) { try JPEGDecoder().decode(garbage) }
        #expect(corrupt.kind == .corrupt)
        let limited = try #require(throws: ImageCodecError.self) {
            try JPEGDecoder(limits: DecodingLimits(maxPixelsPerFrame: 100)).decode(data)
        }
        #expect(limited.kind == .limitExceeded)
    }

    @Test func invertedCMYKBecomesRGB() {
        // Adobe stores CMYK inverted: 255 means no ink.
        var pixels: [UInt8] = [255, 255, 255, 255, 0, 255, 255, 255, 255, 255, 255, 0]
        JPEGDecoder.convertInvertedCMYKToRGBA(&pixels)
        #expect(pixels == [255, 255, 255, 255, 0, 255, 255, 255, 0, 0, 0, 255])
    }

    /// Orientation is applied as EXIF defines it: a 2×1 image [A B].
    @Test(arguments: [
        (ImageOrientation.up, 2, 1, [0, 1]),
        (.upMirrored, 2, 1, [1, 0]),
        (.down, 2, 1, [1, 0]),
        (.downMirrored, 2, 1, [0, 1]),
        (.leftMirrored, 1, 2, [0, 1]),
        (.right, 1, 2, [0, 1]),
        (.rightMirrored, 1, 2, [1, 0]),
        (.left, 1, 2, [1, 0]),
    ])
    func orientationTransforms(_ orientation: ImageOrientation, width: Int, height: Int, order: [Int]) {
        let image = Image(width: 2, height: 1, pixels: [10, 10, 10, 255, 20, 20, 20, 255], hasAlpha: false)
        let turned = image.applying(orientation)
        #expect(turned.width == width && turned.height == height)
        let values = (0..<2).map { turned.pixels[$0 * 4] }
        #expect(values == order.map { [UInt8(10), 20][$0] })
    }

    @Test func exifOrientationIsReadAndApplied() throws {
        let upright = try JPEGEncoder(options: .init(quality: 95)).encode(SyntheticImages.photo(width: 64, height: 32))
        let tagged = JPEGFixtures.insertingExifOrientation(6, into: upright)
        #expect(try JPEGDecoder().readHeader(tagged).orientation == .right)
        // Applied by default, as `ImageDecoder` does; kept as stored on request.
        let turned = try JPEGDecoder().decode(tagged)
        #expect(turned.width == 32 && turned.height == 64)
        #expect(try JPEGDecoder().decode(tagged, options: .init(appliesOrientation: false)).width == 64)
    }
}
