import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

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
        let turned = JPEGFixtures.insertingExifOrientation(6, into: upright)
        let output = try ImageTransformer().transform(turned, pipeline: Self.pipeline(mode: 2, width: 30))
        let variant = try WebPDecoder().decode(output.data)
        // Turned photos take the RGBA path (the planes are not turned); its geometry is its own.
        #expect(variant.width == 30)
    }
}
