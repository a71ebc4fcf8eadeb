import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// The oriented-fit table (``OrientedFitCase``, the same rows as
/// WebPBridgeTests' ImageGeometryTests) through the Linux decoders: real
/// JPEGs of the stored size carrying an EXIF orientation, decoded to fit
/// the box by the JPEG decoder and by the codec the pipeline calls.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct OrientedFitDecoderTests {
    /// A white JPEG of each stored size in the table (white: a flat image
    /// encodes fast, and the size is what is measured).
    static let jpegs: [String: Data] = {
        var result: [String: Data] = [:]
        for row in OrientedFitCase.all {
            let key = "\(row.stored.width)x\(row.stored.height)"
            guard result[key] == nil else { continue }
            let pixels = [UInt8](repeating: 255, count: row.stored.width * row.stored.height * 4)
            let image = Image(width: row.stored.width, height: row.stored.height, pixels: pixels, hasAlpha: false)
            result[key] = try? JPEGEncoder(options: .init(quality: 50)).encode(image)
        }
        return result
    }()

    static func taggedJPEG(_ row: OrientedFitCase) throws -> Data {
        let plain = try #require(jpegs["\(row.stored.width)x\(row.stored.height)"])
        return JPEGFixtures.insertingExifOrientation(UInt8(row.orientation.rawValue), into: plain)
    }

    @Test(arguments: OrientedFitCase.all)
    func theJPEGDecoder(_ row: OrientedFitCase) throws {
        let data = try Self.taggedJPEG(row)
        #expect(try JPEGDecoder().readHeader(data).orientation == row.orientation)
        let unbounded = row.box.width == nil && row.box.height == nil
        let image = try JPEGDecoder().decode(data, options: .init(fitting: unbounded ? nil : row.box))
        #expect(
            image.width == row.upright.width && image.height == row.upright.height, "\(image.width)x\(image.height)")
    }

    /// ImageCodec.decodeStill of the Linux codec: the call ImagePipeline makes with a target size.
    @Test(arguments: OrientedFitCase.all)
    func theCodecsDecodeStill(_ row: OrientedFitCase) throws {
        let image = try CImageCodec().decodeStill(
            Self.taggedJPEG(row), format: .jpeg, maxWidth: row.box.width, maxHeight: row.box.height,
            limits: .default)
        #expect(
            image.width == row.upright.width && image.height == row.upright.height, "\(image.width)x\(image.height)")
    }
}
