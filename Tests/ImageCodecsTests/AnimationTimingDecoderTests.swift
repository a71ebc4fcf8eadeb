import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// The Linux APNG and WebP decoders time frames as the GIF decoder and
/// ImageIOCodec do (``AnimationTiming``): 10 ms or less shows for 100 ms,
/// and the file's play count is kept. (GIF: GIFDecoderTests.)
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct AnimationTimingDecoderTests {
    /// Written delays and the delays shown.
    static let written = [0, 5, 10, 11, 500]
    static let shown = [100, 100, 100, 11, 500]

    static func animation(loopCount: Int) -> AnimatedImage {
        var animation = SyntheticImages.animation(
            width: 24, height: 16, frameCount: written.count, loopCount: loopCount)
        for index in animation.frames.indices { animation.frames[index].durationMilliseconds = written[index] }
        return animation
    }

    @Test(arguments: [0, 1, 3])
    func apng(loopCount: Int) throws {
        let data = try APNGEncoder().encode(Self.animation(loopCount: loopCount))
        let decoded = try APNGDecoder().decode(data)
        #expect(decoded.frames.map(\.durationMilliseconds) == Self.shown)
        #expect(decoded.loopCount == loopCount)
        #expect(try PNGDecoder.readHeader(data).loopCount == loopCount)
    }

    @Test(arguments: [0, 1, 3])
    func webp(loopCount: Int) throws {
        let data = try WebPEncoder(options: .init(lossless: true)).encode(Self.animation(loopCount: loopCount))
        let decoded = try WebPDecoder().decodeAnimation(data)
        #expect(decoded.frames.map(\.durationMilliseconds) == Self.shown)
        #expect(decoded.loopCount == loopCount)
        #expect(try WebPDecoder().animationInfo(data).loopCount == loopCount)
    }

    /// Through the codec the pipeline calls, the same answer for both formats.
    @Test func theCodecAgreesAcrossFormats() throws {
        let animation = Self.animation(loopCount: 2)
        for data in [try APNGEncoder().encode(animation), try WebPEncoder().encode(animation)] {
            let format = try ImageFormat.sniff(data)
            guard case .animated(let decoded) = try CImageCodec().decode(data, format: format, limits: .default) else {
                Issue.record("\(format) decoded as a still")
                continue
            }
            #expect(decoded.frames.map(\.durationMilliseconds) == Self.shown, "\(format)")
            #expect(decoded.loopCount == 2, "\(format)")
        }
    }
}
