public import Foundation

/// What the portable core asks of a platform's image codec: decode with
/// limits (whole, or one still scaled to fit a size), encode a still as JPEG,
/// PNG or AVIF, and optionally re-encode an animation as APNG or decode a WebP
/// while it arrives.
///
/// The pipeline, the bridge core and the ``Transcoder`` decide everything
/// (which format to ask for, when to fall back, what a consumer can show);
/// a codec only turns bytes into pixels and back. Implementations:
/// `CImageCodec` (libwebp, TurboJPEG, libspng, giflib; the `ImageCodecs`
/// target, Linux) and ``ImageIOCodec`` (ImageIO; Apple platforms).
///
/// Every method may be called from several threads at once. Sniffing is not
/// a codec's business: ``ImageFormat/sniff(_:)`` is portable and the same
/// everywhere.
public protocol ImageCodec: Sendable {
    /// A short name for logs and diagnostics, e.g. `libwebp+turbojpeg+spng+giflib`.
    var name: String { get }

    /// The formats ``decode(_:format:limits:)`` accepts.
    var decodableFormats: Set<ImageFormat> { get }

    /// Decodes `data`, already sniffed as `format`: an animation to
    /// ``DecodedImage/animated(_:)``, anything else to ``DecodedImage/still(_:)``.
    ///
    /// - Throws: ``ImageCodecError``: corrupt or truncated bytes, a format
    ///   the codec cannot decode (`.unsupported`), or anything over `limits`,
    ///   checked before pixel memory is allocated.
    func decode(_ data: Data, format: ImageFormat, limits: DecodingLimits) throws(ImageCodecError) -> DecodedImage

    /// Decodes a still (an animation's first frame alone) scaled to fit
    /// inside `maxWidth`×`maxHeight` (either may be `nil`: unbounded), never
    /// enlarged, through the codec's cheapest path (a DCT-scaled JPEG, a
    /// thumbnail from ImageIO).
    func decodeStill(
        _ data: Data, format: ImageFormat, maxWidth: Int?, maxHeight: Int?, limits: DecodingLimits
    ) throws(ImageCodecError) -> Image

    /// Encodes a still image.
    ///
    /// - Throws: ``ImageCodecError`` `.unsupported` for an encoding the codec lacks.
    func encode(_ image: Image, as encoding: StillEncoding) throws(ImageCodecError) -> Data

    /// Re-encodes the animation in `data` (sniffed as `format`) as APNG frame
    /// by frame, or returns `nil` when `data` is not an animation of more
    /// than one frame or the codec cannot write APNG.
    func encodeAnimationAsAPNG(
        _ data: Data, format: ImageFormat, compressionLevel: Int, limits: DecodingLimits
    ) throws(ImageCodecError) -> Data?

    /// A decoder that shows a still WebP while its bytes arrive, or `nil`
    /// when the codec has none (then callers show the final image only).
    func makeProgressiveDecoder(limits: DecodingLimits) -> (any ProgressiveImageDecoder)?
}

/// A still image's output encoding.
public enum StillEncoding: Sendable, Equatable {
    /// JPEG at `quality` 1–100 (opaque: alpha is dropped).
    case jpeg(quality: Int)
    /// PNG at zlib `compressionLevel` 0–9.
    case png(compressionLevel: Int)
    /// AVIF at `quality` 1–100 (mapped onto AV1 quantizers) and encoder
    /// `speed` 0 (slowest, smallest) to 10 (fastest). Opaque images are
    /// written without an alpha plane.
    case avif(quality: Int, speed: Int)

    /// The format written.
    public var format: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .avif: .avif
        }
    }
}

/// Decodes a still image while its bytes arrive (see
/// ``ImageCodec/makeProgressiveDecoder(limits:)``). Used from one task at a
/// time; not required to be thread-safe.
public protocol ProgressiveImageDecoder: AnyObject {
    /// Feeds the next bytes of the file.
    ///
    /// - Returns: the rows decoded so far and the image's height, or `nil`
    ///   while the headers have not arrived.
    /// - Throws: ``ImageCodecError`` for a corrupt stream, an animation or an
    ///   image over the limits; the caller then stops feeding.
    func feed(_ chunk: Data) throws(ImageCodecError) -> (rows: Int, height: Int)?

    /// What is decoded so far (rows not yet decoded are transparent), or
    /// `nil` before the first row.
    func partialImage() -> Image?
}
