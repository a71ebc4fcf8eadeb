import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// libavif behind `AVIFDecoder`/`AVIFEncoder`: round trips on the Kodak and
/// edge corpus with SSIM, header facts without decoding, limits, damaged bytes.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct AVIFCodecTests {
    static let photos = Corpus.kodakNames

    @Test(arguments: photos)
    func kodakRoundTripKeepsLumaSSIMAbove090(_ name: String) throws {
        let source = try PNGDecoder().decode(Corpus.data("kodak/\(name)"))
        let avif = try AVIFEncoder().encode(source)
        #expect(ImageFormat.sniffIfImage(avif) == .avif)
        let decoded = try AVIFDecoder().decode(avif)
        #expect(decoded.width == source.width && decoded.height == source.height)
        #expect(!decoded.hasAlpha && decoded.isOpaque)
        let ssim = try SSIM.luma(source, decoded)
        print(
            "AVIF q\(AVIFEncoder.defaultQuality) s\(AVIFEncoder.defaultSpeed) \(name):"
                + " \(avif.count) bytes, SSIM \(ssim)"
        )
        #expect(ssim >= 0.90, "\(name): SSIM \(ssim)")
        #expect(avif.count < source.pixelCount / 2, "\(name): AVIF at the default quality is below 4 bits a pixel")
    }

    @Test(arguments: ["hopper.png", "transparent.png", "pil123rgba.png"])
    func edgePNGRoundTripKeepsSizeAlphaAndSSIM(_ name: String) throws {
        let source = try PNGDecoder().decode(Corpus.data("edge/\(name)"))
        let avif = try AVIFEncoder(options: .init(speed: 8)).encode(source)
        let info = try ImageInfo(avif)
        #expect(info.format == .avif && info.width == source.width && info.height == source.height)
        #expect(info.alpha == !source.isOpaque, "an alpha plane exactly when some pixel is translucent")
        let decoded = try ImageDecoder().decodeStill(avif)
        let ssim = try SSIM.luma(source.compositedOverWhiteForTest(), decoded.compositedOverWhiteForTest())
        print("AVIF edge \(name): \(avif.count) bytes, SSIM \(ssim)")
        #expect(ssim >= 0.85, "\(name): SSIM \(ssim)")
        if !source.isOpaque {
            // The alpha plane is lossless.
            let alphaOf = { (image: Image) in stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] } }
            #expect(alphaOf(decoded) == alphaOf(source))
        }
    }

    @Test func headerIsReadWithoutDecoding() throws {
        let avif = try AVIFEncoder(options: .init(speed: 10)).encode(
            Image(width: 40, height: 30, filledWith: (9, 99, 199, 255)))
        let header = try AVIFDecoder().readHeader(avif)
        #expect(header.width == 40 && header.height == 30 && !header.hasAlpha)
        #expect(header.depth == 8 && header.frameCount == 1)
        let info = try ImageInfo(avif)
        #expect(info.format == .avif && info.frames == 1 && info.loopCount == 0 && info.bytes == avif.count)
    }

    @Test func limitsAreRefusedFromTheHeader() throws {
        let avif = try AVIFEncoder(options: .init(speed: 10)).encode(
            Image(width: 64, height: 64, filledWith: (1, 2, 3, 255)))
        let pixels = #expect(throws: ImageCodecError.self) {
            try AVIFDecoder(limits: DecodingLimits(maxPixelsPerFrame: 4_095)).decode(avif)
        }
        #expect(pixels?.kind == .limitExceeded && pixels?.format == .avif, "\(String(describing: pixels))")
        let bytes = #expect(throws: ImageCodecError.self) {
            try AVIFDecoder(limits: DecodingLimits(maxInputBytes: avif.count - 1)).decode(avif)
        }
        #expect(bytes?.kind == .limitExceeded)
        // The same image within the limits decodes.
        #expect(try AVIFDecoder(limits: DecodingLimits(maxPixelsPerFrame: 4_096)).decode(avif).width == 64)
    }

    @Test func truncatedAndDamagedBytesAreTypedErrors() throws {
        let source = try PNGDecoder().decode(Corpus.data("edge/hopper.png"))
        let avif = try AVIFEncoder(options: .init(speed: 10)).encode(source)
        let step = max(1, avif.count / 24)
        for length in stride(from: 0, to: avif.count, by: step) {
            let cut = avif.prefix(length)
            let error = #expect(throws: ImageCodecError.self, "cut at \(length)") { try AVIFDecoder().decode(cut) }
            #expect(
                error?.kind == .truncated || error?.kind == .corrupt, "cut at \(length): \(String(describing: error))")
            _ = try? ImageDecoder().decodeStill(cut, fittingWidth: 16, height: 16)
            _ = try? ImageInfo(cut)
        }
        var generator = SeededGenerator(seed: 14)
        for offset in stride(from: 0, to: avif.count, by: step) {
            var damaged = avif
            damaged[offset] ^= UInt8.random(in: 1...255, using: &generator)
            // Decodes (AV1 data may absorb a flipped bit) or throws the typed error: never traps.
            _ = try? AVIFDecoder().decode(damaged)
            _ = try? ImageDecoder().decodeStill(damaged, fittingWidth: 16, height: 16)
        }
        // An ftyp that claims AVIF, followed by garbage.
        var garbage = Data([0, 0, 0, 0x14]) + Data("ftypavif".utf8) + Data([0, 0, 0, 0]) + Data("mif1".utf8)
        garbage += Data((0..<4_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(ImageFormat.sniffIfImage(garbage) == .avif)
        let error = #expect(throws: ImageCodecError.self) { try AVIFDecoder().decode(garbage) }
        #expect(error?.format == .avif)
    }

    @Test func invalidOptionsAreRefused() throws {
        let image = Image(width: 8, height: 8, filledWith: (0, 0, 0, 255))
        for options in [AVIFEncoder.Options(quality: 0), .init(quality: 101), .init(speed: -1), .init(speed: 11)] {
            let error = #expect(throws: ImageCodecError.self) { try AVIFEncoder(options: options).encode(image) }
            #expect(error?.kind == .invalidArgument)
        }
    }

    @Test func qualityMapsOntoTheAV1Quantizer() {
        #expect(AVIFEncoder.Options(quality: 100).quantizer == 0)
        #expect(AVIFEncoder.Options(quality: 1).quantizer == 62)
        #expect(AVIFEncoder.Options(quality: 50).quantizer == 32)
    }

    @Test(.enabled(if: ExternalTool.available("avifenc"), "avifenc (libavif-bin) is not installed"))
    func tenBitInputIsDownConverted() throws {
        let folder = try TemporaryDirectory(prefix: "avif-10bit")
        let output = folder.file("kodim23-10bit.avif")
        let outcome = try ChildProcess.run(
            #require(ExternalTool.path("avifenc")),
            [
                "--depth", "10", "--speed", "10", "--min", "10", "--max", "10", Corpus.url("kodak/kodim23.png").path,
                output.path,
            ])
        try #require(outcome.exitStatus == 0, "avifenc: \(outcome.stderr)")
        let avif = try Data(contentsOf: output)
        #expect(try AVIFDecoder().readHeader(avif).depth == 10)
        let decoded = try AVIFDecoder().decode(avif)
        let source = try PNGDecoder().decode(Corpus.data("kodak/kodim23.png"))
        let ssim = try SSIM.luma(source, decoded)
        print("AVIF 10-bit kodim23 decoded to 8-bit: SSIM \(ssim)")
        #expect(ssim >= 0.95, "10-bit down-conversion: SSIM \(ssim)")
    }

    @Test(.enabled(if: ExternalTool.available("avifenc"), "avifenc (libavif-bin) is not installed"))
    func imageSequenceDecodesItsFirstFrameWithinTheFrameLimit() throws {
        let folder = try TemporaryDirectory(prefix: "avif-sequence")
        let red = folder.file("red.png")
        let blue = folder.file("blue.png")
        try PNGEncoder().encode(Image(width: 32, height: 32, filledWith: (255, 0, 0, 255))).write(to: red)
        try PNGEncoder().encode(Image(width: 32, height: 32, filledWith: (0, 0, 255, 255))).write(to: blue)
        let output = folder.file("sequence.avif")
        let outcome = try ChildProcess.run(
            #require(ExternalTool.path("avifenc")), ["--speed", "10", red.path, blue.path, output.path])
        try #require(outcome.exitStatus == 0, "avifenc: \(outcome.stderr)")
        let avif = try Data(contentsOf: output)
        #expect(ImageFormat.sniffIfImage(avif) == .avif)
        #expect(try ImageInfo(avif).frames == 2)
        let first = try ImageDecoder().decodeStill(avif)
        #expect(first.pixels[0] > 200 && first.pixels[2] < 60, "the first frame is the red one")
        let error = #expect(throws: ImageCodecError.self) {
            try AVIFDecoder(limits: DecodingLimits(maxFrames: 1)).decode(avif)
        }
        #expect(error?.kind == .limitExceeded)
    }
}

extension Image {
    /// Translucent pixels over white, so SSIM compares what a page shows.
    fileprivate func compositedOverWhiteForTest() -> Image {
        var result = self
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[index + 3])
            for channel in 0..<3 {
                result.pixels[index + channel] = UInt8(
                    (Int(pixels[index + channel]) * alpha + 255 * (255 - alpha)) / 255)
            }
            result.pixels[index + 3] = 255
        }
        return result
    }
}
