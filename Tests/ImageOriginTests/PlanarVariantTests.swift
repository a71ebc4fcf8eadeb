import Foundation
import ImageCodecs
import ImageOrigin
import TestSupport
import TestTraits
import Testing

/// JPEG → WebP variants go through the JPEG's planes where they can and
/// through RGBA where they cannot (crops, turned photos), with the same
/// sizes and looks either way; generated images, so it runs without the corpus.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct PlanarVariantTests {
    static func pipeline(mode: Int, width: Int, height: Int? = nil) -> ProcessingPipeline {
        ProcessingPipeline(
            steps: [.imageView2(ImageView2(mode: mode, width: width, height: height, format: .webp))],
            ignoresErrors: false)
    }

    @Test(arguments: [JPEGEncoder.Subsampling.s420, .s422, .s444, .gray])
    func scaledJPEGsLookLikeTheirSource(_ subsampling: JPEGEncoder.Subsampling) throws {
        let photo = SyntheticImages.photo(width: 301, height: 203)
        let jpeg = try JPEGEncoder(options: .init(quality: 95, subsampling: subsampling)).encode(photo)
        let output = try ImageTransformer().transform(jpeg, pipeline: Self.pipeline(mode: 2, width: 150))
        #expect(output.format == .webp && !output.isSource)
        let variant = try WebPDecoder().decode(output.data)
        #expect(variant.width == 150 && variant.height == 101)
        let reference = try ImageResizer().resize(JPEGDecoder().decode(jpeg), width: 150, height: 101)
        let score = try SSIM.luma(reference, variant)
        #expect(score >= 0.9, "\(subsampling): SSIM \(score)")
    }

    @Test func cropsAndTurnedPhotosKeepTheirGeometry() throws {
        let upright = try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 120, height: 60))
        let cropped = try ImageTransformer().transform(upright, pipeline: Self.pipeline(mode: 1, width: 40, height: 40))
        let square = try WebPDecoder().decode(cropped.data)
        #expect(square.width == 40 && square.height == 40)
        let turned = JPEGCodecFixture.insertingExifOrientation(6, into: upright)
        let output = try ImageTransformer().transform(turned, pipeline: Self.pipeline(mode: 2, width: 30))
        let variant = try WebPDecoder().decode(output.data)
        // Turned photos take the RGBA path (the planes are not turned); its geometry is its own.
        #expect(variant.width == 30)
    }
}

/// An EXIF orientation inserted into a JPEG (as the codec tests do).
enum JPEGCodecFixture {
    static func insertingExifOrientation(_ value: UInt8, into jpeg: Data) -> Data {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, value, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        result.append(jpeg.dropFirst(2))
        return result
    }
}
