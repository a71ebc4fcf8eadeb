import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

@Suite("PNG decode and encode on generated images", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct PNGCodecTests {
    @Test("RGBA image round-trips bit-exactly", arguments: [(1, 1), (7, 3), (64, 48), (301, 17)])
    func roundTripsWithAlpha(size: (Int, Int)) throws {
        let image = SyntheticImages.photo(width: size.0, height: size.1, alpha: true)
        let data = try PNGEncoder().encode(image)
        #expect(try ImageFormat.sniff(data) == .png)
        let decoded = try PNGDecoder().decode(data)
        #expect(decoded.pixels == image.pixels)
        #expect(decoded.hasAlpha == !image.isOpaque)
    }

    @Test("an opaque image is written as RGB and decodes without alpha")
    func opaqueIsWrittenAsRGB() throws {
        var image = SyntheticImages.photo(width: 40, height: 30)
        image.hasAlpha = true  // declared, but every pixel is opaque
        let data = try PNGEncoder().encode(image)
        #expect(data[data.startIndex + 25] == 2, "IHDR colour type")
        let header = try PNGDecoder.readHeader(data)
        #expect(header == PNGHeader(width: 40, height: 30, hasAlpha: false, bitDepth: 8, frameCount: 1, loopCount: nil))
        let decoded = try PNGDecoder().decode(data)
        #expect(decoded.pixels == image.pixels)
        #expect(!decoded.hasAlpha)
    }

    @Test("every compression level round-trips; higher levels are not larger", arguments: [0, 1, 6, 9])
    func compressionLevels(level: Int) throws {
        let image = SyntheticImages.photo(width: 120, height: 80, alpha: true)
        let data = try PNGEncoder(options: .init(compressionLevel: level)).encode(image)
        #expect(try PNGDecoder().decode(data).pixels == image.pixels)
        if level == 9 {
            let stored = try PNGEncoder(options: .init(compressionLevel: 0)).encode(image)
            #expect(data.count < stored.count)
        }
    }

    @Test("a compression level outside 0...9 is an invalid argument")
    func badCompressionLevel() {
        let error = #expect(throws: ImageCodecError.self) {
            try PNGEncoder(options: .init(compressionLevel: 10)).encode(
                Image(width: 1, height: 1, filledWith: (0, 0, 0, 255)))
        }
        #expect(error?.kind == .invalidArgument)
    }

    @Test("palette with tRNS becomes RGBA with alpha")
    func paletteWithTransparency() throws {
        let png = PNGFixture.png(
            width: 3, height: 1, bitDepth: 8, colorType: 3, rows: [[0, 1, 2]],
            palette: [255, 0, 0, 0, 255, 0, 0, 0, 255], transparency: [255, 128])
        let image = try PNGDecoder().decode(Data(png))
        #expect(image.pixels == [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255])
        #expect(image.hasAlpha)
    }

    @Test("2-bit palette without tRNS is opaque")
    func lowBitPalette() throws {
        // Indices 3, 2, 1, 0 packed in one byte.
        let png = PNGFixture.png(
            width: 4, height: 1, bitDepth: 2, colorType: 3, rows: [[0b11_10_01_00]],
            palette: [0, 0, 0, 10, 10, 10, 20, 20, 20, 30, 30, 30])
        let image = try PNGDecoder().decode(Data(png))
        #expect(image.pixels == [30, 30, 30, 255, 20, 20, 20, 255, 10, 10, 10, 255, 0, 0, 0, 255])
        #expect(!image.hasAlpha)
    }

    @Test("grey and grey + alpha become RGBA")
    func grey() throws {
        let grey = try PNGDecoder().decode(
            Data(PNGFixture.png(width: 2, height: 1, bitDepth: 8, colorType: 0, rows: [[7, 200]])))
        #expect(grey.pixels == [7, 7, 7, 255, 200, 200, 200, 255])
        #expect(!grey.hasAlpha)
        let greyAlpha = try PNGDecoder().decode(
            Data(PNGFixture.png(width: 2, height: 1, bitDepth: 8, colorType: 4, rows: [[7, 0, 200, 255]])))
        #expect(greyAlpha.pixels == [7, 7, 7, 0, 200, 200, 200, 255])
        #expect(greyAlpha.hasAlpha)
    }

    @Test("grey tRNS makes the matching grey transparent")
    func greyTransparency() throws {
        let image = try PNGDecoder().decode(
            Data(
                PNGFixture.png(width: 2, height: 1, bitDepth: 8, colorType: 0, rows: [[7, 200]], transparency: [0, 7])))
        #expect(image.pixels == [7, 7, 7, 0, 200, 200, 200, 255])
        #expect(image.hasAlpha)
    }

    @Test("16-bit RGBA keeps each sample's high byte")
    func sixteenBit() throws {
        let row: [UInt8] = [0x12, 0x34, 0xAB, 0xCD, 0xFF, 0xFF, 0x80, 0x00]
        let image = try PNGDecoder().decode(
            Data(PNGFixture.png(width: 1, height: 1, bitDepth: 16, colorType: 6, rows: [row])))
        #expect(image.pixels == [0x12, 0xAB, 0xFF, 0x80])
        let header = try PNGDecoder.readHeader(
            Data(PNGFixture.png(width: 1, height: 1, bitDepth: 16, colorType: 6, rows: [row])))
        #expect(header.bitDepth == 16 && header.hasAlpha)
    }

    @Test("dimensions beyond the limits fail from IHDR, before decoding")
    func limitFromHeader() {
        let png = PNGFixture.png(
            width: 100, height: 100, bitDepth: 8, colorType: 0,
            rows: Array(repeating: [UInt8](repeating: 0, count: 100), count: 100))
        let error = #expect(throws: ImageCodecError.self) {
            try PNGDecoder(limits: DecodingLimits(maxPixelsPerFrame: 9_999)).decode(Data(png))
        }
        #expect(error?.kind == .limitExceeded)
    }

    @Test("input beyond the byte limit fails")
    func inputLimit() throws {
        let data = try PNGEncoder().encode(SyntheticImages.photo(width: 32, height: 32))
        let error = #expect(throws: ImageCodecError.self) {
            try PNGDecoder(limits: DecodingLimits(maxInputBytes: 100)).decode(data)
        }
        #expect(error?.kind == .limitExceeded)
    }

    @Test("truncated and damaged streams give typed errors")
    func damaged() throws {
        let data = try PNGEncoder().encode(SyntheticImages.photo(width: 64, height: 64))
        // (Without only its IEND chunk a PNG still decodes, as with libpng.)
        for length in [0, 5, 8, 20, 40, data.count / 2, data.count - 20] {
            do {
                _ = try PNGDecoder().decode(data.prefix(length))
                Issue.record("\(length) bytes decoded")
            } catch {
                #expect(error.kind == .truncated || error.kind == .corrupt, "\(length) bytes: \(error)")
            }
        }
        var flipped = data
        flipped[60] ^= 0xFF  // inside IDAT: the CRC no longer matches
        let error = #expect(throws: ImageCodecError.self) { try PNGDecoder().decode(flipped) }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("libspng") == true)
    }
}

@Suite(
    "PNG decode and encode on the corpus",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct PNGCorpusTests {
    @Test("Kodak photos: decode → encode → decode is bit-exact", arguments: Corpus.kodakNames)
    func kodakRoundTrip(name: String) throws {
        let data = try Corpus.data("kodak/\(name)")
        let image = try PNGDecoder().decode(data)
        #expect(!image.hasAlpha)
        #expect(image.pixelCount == 768 * 512)
        let again = try PNGDecoder().decode(try PNGEncoder().encode(image))
        #expect(again.pixels == image.pixels)
    }

    @Test(
        "edge PNGs: size and alpha as the files declare, and bit-exact round trips",
        arguments: [
            ("hopper.png", 128, 128, false),
            ("pil123rgba.png", 162, 150, true),  // interlaced RGBA
            ("transparent.png", 200, 150, true),
        ])
    func edgeRoundTrip(name: String, width: Int, height: Int, hasAlpha: Bool) throws {
        let data = try Corpus.data("edge/\(name)")
        let header = try PNGDecoder.readHeader(data)
        #expect(header.width == width && header.height == height && header.hasAlpha == hasAlpha)
        let image = try PNGDecoder().decode(data)
        #expect(image.width == width && image.height == height && image.hasAlpha == hasAlpha)
        let again = try PNGDecoder().decode(try PNGEncoder().encode(image))
        #expect(again.pixels == image.pixels)
    }

    @Test("broken.png: a corrupt IHDR")
    func broken() throws {
        let data = try Corpus.data("edge/broken.png")
        let error = #expect(throws: ImageCodecError.self) { try PNGDecoder().decode(data) }
        #expect(error?.kind == .corrupt)
        #expect(error?.format == .png)
        let headerError = #expect(throws: ImageCodecError.self) { try PNGDecoder.readHeader(data) }
        #expect(headerError?.kind == .corrupt)
    }

    @Test("broken_data_stream.png: damaged image data")
    func brokenDataStream() throws {
        let error = #expect(throws: ImageCodecError.self) {
            try PNGDecoder().decode(Corpus.data("edge/broken_data_stream.png"))
        }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("libspng") == true)
    }

    @Test("png_decompression_dos.png: zTXt bombs stop at libspng's chunk limits")
    func decompressionBomb() throws {
        let error = #expect(throws: ImageCodecError.self) {
            try PNGDecoder().decode(Corpus.data("edge/png_decompression_dos.png"))
        }
        #expect(error?.kind == .limitExceeded)
    }
}
