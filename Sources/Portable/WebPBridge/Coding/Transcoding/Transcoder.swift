public import Foundation

/// Turns encoded bytes into something a consumer can show: the bytes
/// untouched when it can show their format, otherwise an opaque image as
/// JPEG, a transparent one as PNG, an animation as APNG.
///
/// Opaque versus transparent is decided from the pixels, never from a name
/// or a declared alpha channel. The format is sniffed from the bytes, never
/// taken from a URL or `Content-Type` (a CDN's `ignore-error/1` may answer a
/// WebP request with the original JPEG). The decisions are made here, the
/// same on every platform; the platform's ``ImageCodec`` only decodes and
/// encodes.
public struct Transcoder: Sendable {
    /// Transcoding settings with documented defaults.
    public struct Configuration: Sendable, Equatable {
        /// JPEG quality for opaque stills. Default 90: above a WebP's q80 by
        /// SSIM, so the transcode never looks worse than the WebP.
        public var jpegQuality: Int
        /// zlib level for PNG and APNG output, 0–9. Default 6.
        public var pngCompressionLevel: Int
        /// Decoding limits for the input. Default ``defaultLimits``.
        public var limits: DecodingLimits

        /// The default limits: ``DecodingLimits/default`` but at most 100
        /// megapixels summed over an animation's frames (100 frames of
        /// 1000×1000), since a transcode runs per request, and the servers'
        /// work budget (``DecodingLimits/serverWorkPixels``), which refuses
        /// an animation whose frames alone pass it from its header.
        /// Animations are transcoded frame by frame, so memory is a few
        /// canvases (about 5 × 4 bytes × the canvas's pixels) whatever the
        /// frame count; the totals bound the CPU time one request can take
        /// from a core.
        public static let defaultLimits = DecodingLimits(
            maxTotalPixels: 100_000_000, maxWorkPixels: DecodingLimits.serverWorkPixels)

        /// Creates a configuration; every parameter has the documented default.
        public init(jpegQuality: Int = 90, pngCompressionLevel: Int = 6, limits: DecodingLimits = defaultLimits) {
            self.jpegQuality = jpegQuality
            self.pngCompressionLevel = pngCompressionLevel
            self.limits = limits
        }
    }

    /// The formats a consumer can show.
    public typealias Capabilities = Set<ImageFormat>

    /// The result of ``transcode(_:for:)``.
    public struct Output: Sendable {
        /// The bytes to deliver.
        public var data: Data
        /// Their format.
        public var format: ImageFormat
        /// Whether ``data`` differs from the input.
        public var isTranscoded: Bool
        /// The `Content-Type` to send.
        public var mimeType: String { format.mimeType }
    }

    /// What decodes and encodes.
    public let codec: any ImageCodec
    public var configuration: Configuration

    /// Creates a transcoder over `codec`.
    public init(codec: any ImageCodec, configuration: Configuration = Configuration()) {
        self.codec = codec
        self.configuration = configuration
    }

    /// A WebView that cannot decode WebP: JPEG, PNG, APNG and GIF.
    public static let withoutWebP: Capabilities = [.jpeg, .png, .apng, .gif]

    /// Returns what `consumer` can show.
    ///
    /// - Throws: ``ImageCodecError`` when the input cannot be decoded, or
    ///   ``ImageCodecError/Kind/unsupported`` when the consumer can show none
    ///   of the possible outputs.
    public func transcode(_ data: Data, for consumer: Capabilities) throws(ImageCodecError) -> Output {
        let format = try ImageFormat.sniff(data)
        if consumer.contains(format) {
            return Output(data: data, format: format, isTranscoded: false)
        }
        let limits = configuration.limits
        try limits.checkInput(byteCount: data.count, format: format)
        if consumer.contains(.apng),
            let apng = try codec.encodeAnimationAsAPNG(
                data, format: format, compressionLevel: configuration.pngCompressionLevel, limits: limits)
        {
            return Output(data: apng, format: .apng, isTranscoded: true)
        }
        let image = try codec.decodeStill(data, format: format, maxWidth: nil, maxHeight: nil, limits: limits)
        let encoding: StillEncoding
        if image.isOpaque, consumer.contains(.jpeg) {
            encoding = .jpeg(quality: configuration.jpegQuality)
        } else if consumer.contains(.png) {
            encoding = .png(compressionLevel: configuration.pngCompressionLevel)
        } else if consumer.contains(.jpeg) {
            encoding = .jpeg(quality: configuration.jpegQuality)
        } else {
            throw ImageCodecError(
                .unsupported, format: format,
                "cannot transcode \(format) for a consumer that shows only "
                    + consumer.map(\.description).sorted().joined(separator: ", "))
        }
        return Output(data: try codec.encode(image, as: encoding), format: encoding.format, isTranscoded: true)
    }
}
