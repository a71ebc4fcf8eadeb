import Foundation
import TestTraits
import Testing
import WebPBridge

/// The Transcoder's decisions, over a codec that records what it is asked:
/// these run wherever the portable core builds (Linux here, macOS in the
/// Apple workflow), whatever codec the platform has.
@Suite(.timeLimit(.suiteBound))
struct TranscoderDecisionTests {
    /// Minimal headers: enough for `ImageFormat.sniff`, nothing a real codec would decode.
    static let webp = Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
    static let gif = Data("GIF89a".utf8) + Data(count: 8)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 8)

    @Test(arguments: [
        // (input, consumer, opaque pixels, animation?, expected format, transcoded)
        Row(
            "a consumer that shows the format gets the bytes untouched", webp, [.webp, .jpeg], true, false, .webp, false
        ),
        Row("an opaque still becomes JPEG", webp, Transcoder.withoutWebP, true, false, .jpeg, true),
        Row("a transparent still becomes PNG", webp, Transcoder.withoutWebP, false, false, .png, true),
        Row("a transparent still for a JPEG-only consumer becomes JPEG", webp, [.jpeg], false, false, .jpeg, true),
        Row("an opaque still for a PNG-only consumer becomes PNG", webp, [.png], true, false, .png, true),
        Row(
            "an animation becomes APNG when the consumer shows APNG", webp, Transcoder.withoutWebP, true, true, .apng,
            true),
        Row("an animation for a consumer without APNG becomes its first frame", webp, [.jpeg], true, true, .jpeg, true),
        Row("a GIF for a GIF consumer is untouched", gif, [.gif], true, true, .gif, false),
        Row("a JPEG for a WebP-only consumer becomes nothing", jpeg, [.webp], true, false, nil, false),
    ])
    func decides(_ row: Row) throws {
        let codec = RecordingCodec(opaque: row.opaque, animated: row.animated)
        let transcoder = Transcoder(codec: codec, configuration: .init(jpegQuality: 77, pngCompressionLevel: 3))
        guard let expected = row.expected else {
            #expect(throws: ImageCodecError.self) { try transcoder.transcode(row.input, for: row.consumer) }
            return
        }
        let output = try transcoder.transcode(row.input, for: row.consumer)
        #expect(output.format == expected, "\(row.name)")
        #expect(output.isTranscoded == row.transcoded, "\(row.name)")
        if !row.transcoded { #expect(output.data == row.input) }
        // The configured settings reach the codec, and nothing is decoded for an untouched answer.
        switch expected {
        case .jpeg where row.transcoded: #expect(codec.calls.value.last == "encode jpeg 77")
        case .png where row.transcoded: #expect(codec.calls.value.last == "encode png 3")
        case .apng: #expect(codec.calls.value == ["apng 3"])
        default: #expect(row.transcoded || codec.calls.value.isEmpty)
        }
    }

    @Test func inputOverTheLimitIsRefusedBeforeTheCodecSeesIt() {
        let codec = RecordingCodec(opaque: true, animated: false)
        let limits = DecodingLimits(maxInputBytes: 8)
        let transcoder = Transcoder(codec: codec, configuration: .init(limits: limits))
        #expect(throws: ImageCodecError.self) { try transcoder.transcode(Self.webp, for: [.jpeg]) }
        #expect(codec.calls.value.isEmpty)
    }

    @Test func unknownBytesAreATypedError() {
        let transcoder = Transcoder(codec: RecordingCodec(opaque: true, animated: false))
        do {
            _ = try transcoder.transcode(Data("<html>".utf8), for: [.jpeg])
            Issue.record("HTML was transcoded")
        } catch {
            #expect(error.kind == .unknownFormat)
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var input: Data
        var consumer: Transcoder.Capabilities
        var opaque: Bool
        var animated: Bool
        var expected: ImageFormat?
        var transcoded: Bool

        init(
            _ name: String, _ input: Data, _ consumer: Transcoder.Capabilities, _ opaque: Bool, _ animated: Bool,
            _ expected: ImageFormat?, _ transcoded: Bool
        ) {
            (self.name, self.input, self.consumer, self.opaque, self.animated) = (
                name, input, consumer, opaque, animated
            )
            (self.expected, self.transcoded) = (expected, transcoded)
        }

        var testDescription: String { name }
    }
}

/// A codec that decodes to a 2×2 image of the requested opacity and records each call.
final class RecordingCodec: ImageCodec {
    let opaque: Bool
    let animated: Bool
    let calls = Recorded()

    init(opaque: Bool, animated: Bool) {
        self.opaque = opaque
        self.animated = animated
    }

    var name: String { "recording" }
    var decodableFormats: Set<ImageFormat> { Set(ImageFormat.allCases) }

    func decode(_ data: Data, format: ImageFormat, limits: DecodingLimits) throws(ImageCodecError) -> DecodedImage {
        calls.append("decode")
        return .still(image)
    }

    func decodeStill(
        _ data: Data, format: ImageFormat, maxWidth: Int?, maxHeight: Int?, limits: DecodingLimits
    ) throws(ImageCodecError) -> Image {
        calls.append("still")
        return image
    }

    func encode(_ image: Image, as encoding: StillEncoding) throws(ImageCodecError) -> Data {
        switch encoding {
        case .jpeg(let quality): calls.append("encode jpeg \(quality)")
        case .png(let level): calls.append("encode png \(level)")
        case .avif(let quality, let speed): calls.append("encode avif \(quality) \(speed)")
        }
        return Data([1])
    }

    func encodeAnimationAsAPNG(
        _ data: Data, format: ImageFormat, compressionLevel: Int, limits: DecodingLimits
    ) throws(ImageCodecError) -> Data? {
        guard animated else { return nil }
        calls.append("apng \(compressionLevel)")
        return Data([2])
    }

    func makeProgressiveDecoder(limits: DecodingLimits) -> (any ProgressiveImageDecoder)? { nil }

    private var image: Image { Image(width: 2, height: 2, filledWith: (9, 9, 9, opaque ? 255 : 128)) }
}

/// Calls in order, behind a lock (codecs are called from any thread).
final class Recorded: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var storage: [String] = []

    func append(_ call: String) { lock.withLock { storage.append(call) } }
    var value: [String] { lock.withLock { storage } }
}
