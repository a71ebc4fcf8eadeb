import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing

@testable import ImageOrigin
@testable import WebPBridge

/// What a decoder holds and does for the whole image, whatever size it
/// decodes to, is in a variant's cost: a progressive JPEG's coefficients
/// and scans, a lossless (or translucent) WebP's whole picture. Counted at
/// the scaled size, a 7000×7000 progressive JPEG asked for at 100 px wide
/// peaked at 323 MB against the 125 MiB share for work in flight, and one
/// of 490 scans took 4.2 s of CPU counted as about 0.02 s.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WholeImageDecodeTests {
    static let photo = SyntheticImages.photo(width: 640, height: 480)

    private func jpeg(_ subsampling: JPEGEncoder.Subsampling, progressive: Bool) throws -> Data {
        try JPEGEncoder(options: .init(quality: 85, subsampling: subsampling, progressive: progressive))
            .encode(Self.photo)
    }

    @Test func aProgressiveJPEGsInfoHoldsItsScansAndCoefficients() throws {
        let baseline = try ImageInfo(jpeg(.s444, progressive: false))
        #expect(baseline.scans == 1 && baseline.wholeImageDecoderBytes == 0)
        // 640×480 in 8×8 MCUs of three blocks (4:4:4), 16×16 MCUs of six (4:2:0); 128 bytes a block.
        let full = try ImageInfo(jpeg(.s444, progressive: true))
        #expect(full.scans > 1, "\(full.scans) scans")
        #expect(full.wholeImageDecoderBytes == 80 * 60 * 3 * 128)
        let subsampled = try ImageInfo(jpeg(.s420, progressive: true))
        #expect(subsampled.wholeImageDecoderBytes == 40 * 30 * 6 * 128)
        let gray = try ImageInfo(jpeg(.gray, progressive: true))
        #expect(gray.wholeImageDecoderBytes == 80 * 60 * 128)
    }

    @Test func coefficientsAreCountedInWholeMCUsAndUnknownSamplingAtTheMost() {
        var header = JPEGDecoder.Header(width: 17, height: 9, colorSpace: .ycbcr, orientation: .up)
        header.subsampling = 2  // 4:2:0: 2×1 MCUs of 16×16
        #expect(header.coefficientBytes == 2 * 1 * 6 * 128)
        header.colorSpace = JPEGColorSpace.ycck  // Y and K at full size, C and C one block an MCU
        #expect(header.coefficientBytes == 2 * 10 * 128)
        header.subsampling = -1  // unknown: every component at full size in one 32×32 MCU
        let unknown = 4 * 16 * 128
        #expect(header.coefficientBytes == unknown)
    }

    @Test func aProgressiveJPEGsVariantCountsItsCoefficientsAndScans() throws {
        let pipeline = try ProcessingParser.parse("imageView2/2/w/100/format/png")
        let transformer = ImageTransformer()
        let baselineData = try jpeg(.s444, progressive: false)
        let progressiveData = try jpeg(.s444, progressive: true)
        let baseline = try transformer.cost(of: baselineData, pipeline: pipeline)
        let progressive = try transformer.cost(of: progressiveData, pipeline: pipeline)
        let info = try ImageInfo(progressiveData)
        // The coefficients held beside the scaled decode, which is all the one-scan JPEG's peak is
        // under; a sixteenth of their bytes and 1/128 of the pixels a scan more work.
        #expect(progressive.peakBytes >= progressiveData.count + info.wholeImageDecoderBytes)
        #expect(baseline.peakBytes < baselineData.count + info.wholeImageDecoderBytes)
        let passes = 640 * 480 * info.scans / 128
        #expect(progressive.workPixels == baseline.workPixels + info.wholeImageDecoderBytes / 16 + passes)
    }

    @Test func aSearchDecodesAProgressiveReferenceAgain() throws {
        let pipeline = try ProcessingParser.parse("imageView2/2/w/100/format/webp")
        let data = try jpeg(.s420, progressive: true)
        let info = try ImageInfo(data)
        let fixed = try ImageTransformer.cost(
            of: info, pipeline: pipeline, format: .webp, triesLossless: false, animationContent: .photo)
        let searched = try ImageTransformer.cost(
            of: info, pipeline: pipeline, format: .webp, triesLossless: false, animationContent: .photo,
            searchesQuality: true)
        let outputPixels = 100 * 75
        #expect(
            searched.workPixels == fixed.workPixels + outputPixels * ImageTransformer.searchWorkPerPixel
                + ImageTransformer.wholeImageDecodeWork(of: info))
        #expect(
            searched.peakBytes >= info.bytes + info.wholeImageDecoderBytes + outputPixels
                * ImageTransformer.searchBytesPerPixel)
    }

    @Test func aJPEGOfHundredsOfScansIsPastTheServersWorkBudget() throws {
        // What a flat 7000×7000 JPEG of 490 scans declares: 4.2 s of CPU at 100 px wide.
        let info = ImageInfo(
            format: .jpeg, width: 7000, height: 7000, alpha: false, frames: 1, loopCount: 0, bytes: 611_000,
            scans: 490, wholeImageDecoderBytes: 875 * 875 * 3 * 128)
        let cost = try ImageTransformer.cost(
            of: info, pipeline: ProcessingParser.parse("imageView2/2/w/100/format/webp"), format: .webp,
            triesLossless: false, animationContent: .photo)
        #expect(cost.workPixels > DecodingLimits.serverWorkPixels, "\(cost.workPixels)")
        // The same image in ten scans is within it.
        var tenScans = info
        tenScans.scans = 10
        let ten = try ImageTransformer.cost(
            of: tenScans, pipeline: ProcessingParser.parse("imageView2/2/w/100/format/webp"), format: .webp,
            triesLossless: false, animationContent: .photo)
        #expect(ten.workPixels < DecodingLimits.serverWorkPixels, "\(ten.workPixels)")
    }

    @Test func aLosslessOrTranslucentWebPHoldsItsWholePicture() throws {
        let opaque = try WebPEncoder(options: .init(quality: 80)).encode(Self.photo)
        let lossless = try WebPEncoder(options: .init(lossless: true)).encode(Self.photo)
        var translucentPhoto = Self.photo
        translucentPhoto.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = UInt8(index / 4 % 256) }
        }
        translucentPhoto.hasAlpha = true
        let translucent = try WebPEncoder(options: .init(quality: 80)).encode(translucentPhoto)
        #expect(try ImageInfo(opaque).wholeImageDecoderBytes == 0)
        #expect(try ImageInfo(lossless).wholeImageDecoderBytes == 640 * 480 * WebPFeatures.wholeImageBytesPerPixel)
        #expect(try ImageInfo(translucent).wholeImageDecoderBytes == 640 * 480 * WebPFeatures.wholeImageBytesPerPixel)
    }

    @Test func aScaledWebPDecodeCountsTheWholeImagesWork() throws {
        let pipeline = try ProcessingParser.parse("imageView2/2/w/100/format/png")
        let opaque = try WebPEncoder(options: .init(quality: 80)).encode(Self.photo)
        let lossless = try WebPEncoder(options: .init(lossless: true)).encode(Self.photo)
        let transformer = ImageTransformer()
        let lossy = try transformer.cost(of: opaque, pipeline: pipeline)
        let whole = try transformer.cost(of: lossless, pipeline: pipeline)
        // libwebp decodes every macroblock and rescales to the box as it goes: the box's pixels and
        // the rest of the image's.
        #expect(lossy.workPixels >= 640 * 480)
        #expect(whole.workPixels == lossy.workPixels)
        let picture = 640 * 480 * WebPFeatures.wholeImageBytesPerPixel
        #expect(whole.peakBytes >= lossless.count + picture)
        #expect(lossy.peakBytes < opaque.count + picture)
    }

    @Test func aProgressiveJPEGPastTheShareForWorkInFlightIs413() async throws {
        let folder = try TemporaryDirectory(prefix: "whole-image-decode")
        let big = SyntheticImages.photo(width: 2400, height: 2400)
        try JPEGEncoder(options: .init(quality: 85, subsampling: .s444, progressive: true)).encode(big)
            .write(to: folder.file("progressive.jpg"))
        try JPEGEncoder(options: .init(quality: 85, subsampling: .s444)).encode(big)
            .write(to: folder.file("baseline.jpg"))
        var configuration = ImageOrigin.Configuration(root: folder.url.path)
        configuration.memoryBudget = ImageOrigin.MemoryBudget(totalBytes: 128 << 20)
        let origin = try ImageOrigin(configuration: configuration)
        // 2400×2400 at 4:4:4 holds 34.6 MB of coefficients, past a 128 MiB budget's share.
        #expect(origin.workInFlight.capacityBytes < 2400 * 2400 * 6)
        let refused = await origin.get("/progressive.jpg?imageView2/2/w/100/format/webp")
        #expect(refused.status.code == 413)
        #expect(refused.bodyText.contains("memory budget"), "\(refused.bodyText)")
        let served = await origin.get("/baseline.jpg?imageView2/2/w/100/format/webp")
        #expect(served.status == .ok)
        #expect(origin.workInFlight.reservedBytes == 0)
    }
}
