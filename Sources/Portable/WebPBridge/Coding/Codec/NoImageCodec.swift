public import Foundation

/// A codec that decodes and encodes nothing: every call is
/// ``ImageCodecError/Kind/unsupported``. The default where a platform has
/// neither the C codecs nor ImageIO; a pipeline with it still fetches, caches
/// and hands over bytes (all a bridge needs for a consumer that decodes
/// itself), and a decode falls back like any undecodable variant.
public struct NoImageCodec: ImageCodec {
    public init() {}

    public var name: String { "none" }

    public var decodableFormats: Set<ImageFormat> { [] }

    public func decode(
        _ data: Data, format: ImageFormat, limits: DecodingLimits
    ) throws(ImageCodecError) -> DecodedImage {
        throw unsupported(format)
    }

    public func decodeStill(
        _ data: Data, format: ImageFormat, maxWidth: Int?, maxHeight: Int?, limits: DecodingLimits
    ) throws(ImageCodecError) -> Image {
        throw unsupported(format)
    }

    public func encode(_ image: Image, as encoding: StillEncoding) throws(ImageCodecError) -> Data {
        throw unsupported(encoding.format)
    }

    public func encodeAnimationAsAPNG(
        _ data: Data, format: ImageFormat, compressionLevel: Int, limits: DecodingLimits
    ) throws(ImageCodecError) -> Data? { nil }

    public func makeProgressiveDecoder(limits: DecodingLimits) -> (any ProgressiveImageDecoder)? { nil }

    private func unsupported(_ format: ImageFormat) -> ImageCodecError {
        ImageCodecError(.unsupported, format: format, "no image codec on this platform for \(format)")
    }
}
