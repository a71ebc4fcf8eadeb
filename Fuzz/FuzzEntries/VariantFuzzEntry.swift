public import Foundation
import ImageOrigin
import WebPBridge

/// `fuzz-variant`: the origin's ``ImageTransformer`` on hostile source bytes,
/// as an origin serving uploaded files runs it. Each input is made into a
/// small WebP variant at the fixed quality (animations through the drift
/// check), then negotiated among AVIF, WebP and the source with
/// `--quality auto` and `Save-Data` (the quality search, the lossless try
/// for graphics, AVIF sequences).
public enum VariantFuzzEntry {
    /// The widest variant asked for; every answer but the source itself must fit it.
    static let width = 48

    /// Small bounds, so that one input is a few milliseconds of work and a
    /// header that promises more is refused as an origin refuses it (413).
    static let limits = DecodingLimits(
        maxInputBytes: 1 << 20, maxPixelsPerFrame: 1 << 18, maxFrames: 64, maxTotalPixels: 1 << 21,
        maxWorkPixels: 1 << 22)

    static let fixed: ImageTransformer = {
        var configuration = ImageTransformer.Configuration(maxSourceBytes: limits.maxInputBytes, limits: limits)
        configuration.avifSpeed = 10
        return ImageTransformer(configuration: configuration)
    }()

    static let searched: ImageTransformer = {
        var configuration = fixed.configuration
        configuration.qualityMode = .auto(target: 65)
        configuration.negotiatesAVIFSequences = true
        return ImageTransformer(
            configuration: configuration, scorerPlanes: SSIMULACRA2.PlanePool(capacityBytes: 1 << 24))
    }()

    // Fixed strings the grammar accepts: a parse failure here is a bug.
    static let toWebP = try! ProcessingParser.parse("imageView2/2/w/\(width)/format/webp")
    static let resize = try! ProcessingParser.parse("imageView2/2/w/\(width)")

    /// Transforms `data` both ways. A result or a ``TransformError`` other
    /// than a 500 is expected; a result must be what it says it is.
    public static func run(_ data: Data) {
        check(data, asked: .webp) { () throws(TransformError) in try fixed.transform(data, pipeline: toWebP) }
        check(data, asked: nil) { () throws(TransformError) in
            try searched.transform(data, pipeline: resize, smallestOf: [.avif, .webp], saveData: data.count % 2 == 0)
        }
    }

    /// Runs `transform` on `source`; on success the output must be the source
    /// itself, or an image of the announced format (`asked` when one was asked
    /// for) that the origin's own decoder reads at no more than ``width``
    /// pixels wide.
    private static func check(
        _ source: Data, asked: ImageFormat?, _ transform: () throws(TransformError) -> ImageTransformer.Output
    ) {
        let output: ImageTransformer.Output
        do {
            output = try transform()
        } catch {
            FuzzExpectation.require(error.statusCode != 500, "500 for an input: \(error)")
            return
        }
        if output.isSource {
            FuzzExpectation.require(output.data == source, "answered as the source, with other bytes")
            return
        }
        if let asked { FuzzExpectation.require(output.format == asked, "asked for \(asked), made \(output.format)") }
        FuzzExpectation.require(
            ImageFormat.sniffIfImage(output.data) == output.format, "made bytes that are not \(output.format)")
        if let quality = output.searchedQuality {
            FuzzExpectation.require((0...100).contains(quality), "searched quality \(quality)")
        }
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder().decode(output.data)
        } catch {
            FuzzExpectation.fail("its own \(output.format) variant does not decode: \(error)")
        }
        FuzzExpectation.require(decoded.firstFrame.width <= width, "variant \(decoded.firstFrame.width) px wide")
    }
}
