import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A JPEG decoded scaled by its IDCT and resized into a box shows the
/// picture where the whole decode resized into the same box shows it.
///
/// TurboJPEG rounds a scaled size up: 1203 rows at 3/8 are 451.125 rows of
/// picture, decoded as 452. Resized from 452 rows, the picture was
/// stretched by the fraction and drifted up to a pixel by the bottom edge,
/// which SSIMULACRA 2 (sensitive to where edges are) scored tens of points
/// down on two of the twelve demo photos.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ScaledDecodeAlignmentTests {
    /// 1600×1203: 1203 is not a multiple of 8, so every scale below 1 rounds up.
    static let width = 1600
    static let height = 1203
    static let box = 750

    /// Fine stripes at several angles over the smooth test photo: edges
    /// everywhere, so a drift of a fraction of a pixel shows.
    static func busy() -> Image {
        var image = SyntheticImages.photo(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let wave = sin(Double(x) * 0.21 + Double(y) * 0.13) + sin(Double(y) * 0.37 - Double(x) * 0.05)
                let index = (y * width + x) * 4
                for channel in 0..<3 {
                    let value = Double(image.pixels[index + channel]) * 0.5 + 64 + wave * 30
                    image.pixels[index + channel] = UInt8(clamping: Int(value.rounded()))
                }
            }
        }
        return image
    }

    /// The whole decode resized into the box: the faithful picture.
    static func reference(_ jpeg: Data) throws -> Image {
        let whole = try JPEGDecoder().decode(jpeg)
        let size = ImageResizer.fittingSize(width: width, height: height, maxWidth: box, maxHeight: nil)
        return try ImageResizer().resize(whole, width: size.width, height: size.height)
    }

    @Test func theRGBAPathLinesUpWithTheWholeDecode() throws {
        let jpeg = try JPEGEncoder(options: .init(quality: 95)).encode(Self.busy())
        let reference = try Self.reference(jpeg)
        let scaled = try JPEGDecoder().decode(jpeg, options: .init(fitting: (width: Self.box, height: nil)))
        #expect(scaled.width == reference.width && scaled.height == reference.height)
        let aligned = try SSIMULACRA2.score(reference, scaled)
        #expect(aligned >= 90, "scaled decode against the whole one: \(aligned)")
    }

    @Test func thePlanePathLinesUpWithTheWholeDecode() throws {
        let options = JPEGEncoder.Options(quality: 95, subsampling: .gray)
        let jpeg = try JPEGEncoder(options: options).encode(Self.busy())
        let reference = try Self.reference(jpeg)
        let planes = try #require(
            try JPEGDecoder().decodeYUV420(jpeg, width: reference.width, height: reference.height))
        let score = try SSIMULACRA2.score(reference, YUVPlanePathTests.lumaImage(planes))
        #expect(score >= 90, "plane path's luma against the whole decode: \(score)")
    }

    @Test func anExtentOutsideTheLastPixelIsRefused() throws {
        let image = SyntheticImages.photo(width: 20, height: 10)
        for extent in [(20.5, 10.0), (19.0, 10.0), (20.0, 0.0), (Double.nan, 10.0), (20.0, Double.infinity)] {
            #expect(throws: ImageCodecError.self) {
                try ImageResizer().resize(image, width: 10, height: 5, extent: (extent.0, extent.1))
            }
        }
        let whole = try ImageResizer().resize(image, width: 10, height: 5, extent: (20, 10))
        #expect(whole == (try ImageResizer().resize(image, width: 10, height: 5)))
        #expect(try ImageResizer().resize(image, width: 20, height: 10, extent: (20, 10)) == image)
    }

    /// A ramp whose last column is padding: resized from its extent, the
    /// ramp's values land where the picture puts them, and the padding
    /// (far off the ramp) never reaches the columns away from the edge.
    @Test func theExtentScalesFromThePictureNotThePadding() throws {
        let width = 41
        let extent = 40.25
        var pixels = [UInt8](repeating: 255, count: width * 4 * 4)
        for y in 0..<4 {
            for x in 0..<width {
                let value: UInt8 = x < width - 1 ? UInt8(x * 5) : 0
                for channel in 0..<3 { pixels[(y * width + x) * 4 + channel] = value }
            }
        }
        let ramp = Image(width: width, height: 4, pixels: pixels, hasAlpha: false)
        let resized = try ImageResizer().resize(ramp, width: 23, height: 4, extent: (extent, 4))
        for column in 3..<19 {
            // Output pixel i's centre is at (i + 0.5) × extent / 23 in the source, whose pixel
            // j holds 5j at its centre j + 0.5.
            let expected = 5 * ((Double(column) + 0.5) * extent / 23 - 0.5)
            let value = Double(resized.pixels[(1 * 23 + column) * 4])
            #expect(abs(value - expected) <= 1, "column \(column): \(value), expected \(expected)")
        }
    }
}
