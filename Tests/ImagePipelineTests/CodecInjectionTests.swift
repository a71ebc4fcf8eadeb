import Foundation
import PipelineTestSupport
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The pipeline decodes only through the codec its configuration names (on
/// Apple platforms ImageIO, here the C libraries), and a platform without
/// one still moves bytes.
@Suite(.timeLimit(.suiteBound))
struct CodecInjectionTests {
    /// The C codec, counting what it is asked to decode.
    final class CountingCodec: ImageCodec {
        private let lock = NSLock()
        nonisolated(unsafe) private var formats: [ImageFormat] = []
        private let inner = CImageCodec()

        var decoded: [ImageFormat] { lock.withLock { formats } }
        var name: String { "counting" }
        var decodableFormats: Set<ImageFormat> { inner.decodableFormats }

        func decode(_ data: Data, format: ImageFormat, limits: DecodingLimits) throws(ImageCodecError) -> DecodedImage {
            lock.withLock { formats.append(format) }
            return try inner.decode(data, format: format, limits: limits)
        }

        func decodeStill(
            _ data: Data, format: ImageFormat, maxWidth: Int?, maxHeight: Int?, limits: DecodingLimits
        ) throws(ImageCodecError) -> Image {
            try inner.decodeStill(data, format: format, maxWidth: maxWidth, maxHeight: maxHeight, limits: limits)
        }

        func encode(_ image: Image, as encoding: StillEncoding) throws(ImageCodecError) -> Data {
            try inner.encode(image, as: encoding)
        }

        func encodeAnimationAsAPNG(
            _ data: Data, format: ImageFormat, compressionLevel: Int, limits: DecodingLimits
        ) throws(ImageCodecError) -> Data? {
            try inner.encodeAnimationAsAPNG(data, format: format, compressionLevel: compressionLevel, limits: limits)
        }

        func makeProgressiveDecoder(limits: DecodingLimits) -> (any ProgressiveImageDecoder)? { nil }
    }

    static func pipeline(_ origin: LiveOrigin, codec: any ImageCodec) throws -> ImagePipeline {
        let rewriting = try RewritePreset.configuration(named: "qiniu", host: "127.0.0.1", width: 750)
        return ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rewriting), dataLoader: origin.loader, memoryCache: nil,
                codec: codec))
    }

    @Test func decodesWithTheConfiguredCodec() async throws {
        try await LiveOrigin.with { origin in
            let codec = CountingCodec()
            let pipeline = try Self.pipeline(origin, codec: codec)
            let response = try await pipeline.image(for: origin.photo)
            #expect(response.isVariant && response.image.firstFrame.width > 0)
            #expect(codec.decoded == [.webp])
        }
    }

    /// No progressive decoder: the stream yields only the final image.
    @Test func aCodecWithoutAProgressiveDecoderYieldsTheFinalImageOnly() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try Self.pipeline(origin, codec: CountingCodec())
            var finals: [Bool] = []
            for try await response in pipeline.images(for: origin.photo) { finals.append(response.isFinal) }
            #expect(finals == [true])
        }
    }

    /// Without a codec the bytes still come (all a bridge needs for a
    /// client that decodes itself); decoding fails as `.unsupported`.
    @Test func withoutACodecBytesStillFlowAndDecodingIsUnsupported() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try Self.pipeline(origin, codec: NoImageCodec())
            let data = try await pipeline.data(for: origin.photo)
            #expect(data.format == .webp && data.isVariant)
            do {
                _ = try await pipeline.image(for: origin.photo)
                Issue.record("decoded without a codec")
            } catch {
                #expect((error as? ImagePipelineError)?.decodingError?.kind == .unsupported, "\(error)")
            }
        }
    }
}
