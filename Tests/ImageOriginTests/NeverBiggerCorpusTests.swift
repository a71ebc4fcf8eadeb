import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Over the corpus's edge cases (graphics, animations, transparency, broken
/// files) and the Kodak photos: no WebP variant at the source's size is
/// bigger than its source, and none is bigger than the lossy-only variant the
/// origin made before; the totals and encode times are printed, not asserted.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct NeverBiggerCorpusTests {
    static let imageExtensions: Set<String> = ["gif", "png", "jpg", "webp"]

    /// Every image in `edge/` and the Kodak photos, as corpus paths (an
    /// unreadable `edge/` lists none: ``theCorpusIsListed()`` fails then).
    static let files: [String] =
        ((try? Corpus.files(in: "edge", extensions: imageExtensions)) ?? []).map { "edge/\($0)" }
        + Corpus.kodakNames.map { "kodak/\($0)" }

    /// The edge cases the origin refuses to transform: broken files and
    /// decompression bombs (DamagedInputTests checks how the codecs fail).
    static let refused: Set<String> = [
        "edge/broken.png", "edge/broken_data_stream.png", "edge/png_decompression_dos.png",
        "edge/decompression_bomb.gif", "edge/decompression_bomb_extents.gif",
    ]

    static let sourceSize = ProcessingPipeline(
        steps: [.imageView2(ImageView2(mode: 0, format: .webp))], ignoresErrors: false)

    static func halfWidth(of source: Data) -> ProcessingPipeline? {
        guard let info = try? ImageInfo(source), info.width > 1 else { return nil }
        return ProcessingPipeline(
            steps: [.imageView2(ImageView2(mode: 2, width: info.width / 2, format: .webp))], ignoresErrors: false)
    }

    static var lossyOnly: ImageTransformer.Configuration {
        var configuration = ImageTransformer.Configuration()
        configuration.triesLosslessForGraphics = false
        return configuration
    }

    @Test func theCorpusIsListed() throws {
        let edge = try Corpus.files(in: "edge", extensions: Self.imageExtensions)
        #expect(edge.count > Self.refused.count && Self.files.count == edge.count + Corpus.kodakNames.count)
    }

    @Test(arguments: files)
    func aVariantAtTheSourcesSizeIsNeverBigger(_ path: String) throws {
        let source = try Corpus.data(path)
        guard !Self.refused.contains(path) else {
            #expect(throws: TransformError.self) { try ImageTransformer().transform(source, pipeline: Self.sourceSize) }
            return
        }
        let after = try ImageTransformer().transform(source, pipeline: Self.sourceSize)
        let before = try ImageTransformer(configuration: Self.lossyOnly).transform(source, pipeline: Self.sourceSize)
        #expect(after.data.count <= source.count, "\(path): \(after.data.count) B from a \(source.count) B source")
        #expect(after.data.count <= before.data.count)
        let format = try ImageFormat.sniff(after.data)
        #expect(after.isSource || format == .webp)
    }

    /// The issue's 5-frame GIF of 1,450 B: 4,032 B lossy, 1,350 B lossless.
    @Test func theIssuesAnimatedGIFIsNoLongerBigger() throws {
        let gif = try Corpus.data("edge/dispose_bgnd.gif")
        let reader = try #require(try AnimationReader(gif))
        #expect(reader.frameCount == 5 && gif.count == 1_450)
        let lossy = try VariantEncoding(quality: 80, triesLossless: false).encode(reader, content: .graphic).data
        let chosen = try VariantEncoding(quality: 80).encode(reader, content: .graphic).data
        #expect(lossy.count > gif.count)
        #expect(chosen.count * 2 < lossy.count)
        let output = try ImageTransformer().transform(gif, pipeline: Self.sourceSize)
        #expect(output.data.count <= gif.count)
        print("dispose_bgnd.gif \(gif.count) B: lossy \(lossy.count) B, chosen \(chosen.count) B")
    }

    /// Bytes served before (lossy only) and after, at the source's size and at
    /// half its width, and the encode time with and without the lossless try.
    @Test func printsBytesAndEncodeTimeBeforeAndAfter() throws {
        var bytes = (source: 0, before: 0, after: 0, halfBefore: 0, halfAfter: 0)
        var times: [String: (lossy: Duration, chosen: Duration)] = [:]
        for path in Self.files {
            let source = try Corpus.data(path)
            if Self.refused.contains(path) { continue }
            let after = try ImageTransformer().transform(source, pipeline: Self.sourceSize)
            let before = try ImageTransformer(configuration: Self.lossyOnly).transform(
                source, pipeline: Self.sourceSize)
            bytes.source += source.count
            bytes.before += before.data.count
            bytes.after += after.data.count
            if let half = Self.halfWidth(of: source) {
                bytes.halfBefore += try ImageTransformer(configuration: Self.lossyOnly)
                    .transform(source, pipeline: half).data.count
                bytes.halfAfter += try ImageTransformer().transform(source, pipeline: half).data.count
            }
            let group = path.hasPrefix("kodak/") ? "kodak" : "edge"
            let time = try Self.encodeTimes(source)
            times[group, default: (.zero, .zero)].lossy += time.lossy
            times[group, default: (.zero, .zero)].chosen += time.chosen
            print("\(path): \(source.count) B source, \(before.data.count) B before, \(after.data.count) B after")
        }
        print(
            "edge + Kodak at the source's size: \(bytes.source) B sources, \(bytes.before) B before, "
                + "\(bytes.after) B after; at half width \(bytes.halfBefore) B before, \(bytes.halfAfter) B after")
        for (group, time) in times.sorted(by: { $0.key < $1.key }) {
            print("\(group) encode time: \(time.lossy) lossy only, \(time.chosen) with the lossless try")
        }
        #expect(bytes.source > 0, "no image was transformed")
        #expect(bytes.after <= bytes.before && bytes.halfAfter <= bytes.halfBefore)
    }

    /// The encode alone, from pixels decoded beforehand, lossy only and as
    /// ``VariantEncoding`` chooses (classification included).
    static func encodeTimes(_ source: Data) throws -> (lossy: Duration, chosen: Duration) {
        let format = try ImageFormat.sniff(source)
        let clock = ContinuousClock()
        let lossy = VariantEncoding(quality: 80, triesLossless: false)
        let chosen = VariantEncoding(quality: 80)
        if let reader = try AnimationReader(source) {
            var frames: [AnimatedImage.Frame] = []
            try reader.forEachFrame { frames.append($0) }
            let animation = AnimatedImage(
                canvasWidth: reader.canvasWidth, canvasHeight: reader.canvasHeight, frames: frames,
                loopCount: reader.loopCount)
            let content = VariantEncoding.content(ofAnimation: source, format: format)
            return (
                try clock.measure { _ = try lossy.encode(animation, content: content) },
                try clock.measure { _ = try chosen.encode(animation, content: content) }
            )
        }
        let image = try ImageDecoder().decodeStill(source)
        return (
            try clock.measure { _ = try lossy.encode(image, sourceFormat: format) },
            try clock.measure { _ = try chosen.encode(image, sourceFormat: format) }
        )
    }
}
