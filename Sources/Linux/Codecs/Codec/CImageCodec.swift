public import Foundation

/// The ``ImageCodec`` built on the C libraries: libwebp, TurboJPEG, libspng,
/// giflib and libavif (Debian's packages). Decodes WebP (animated too), JPEG,
/// PNG, APNG, GIF and AVIF (its first frame); encodes JPEG, PNG and AVIF, and animations as APNG frame by frame;
/// decodes a still WebP while it arrives.
///
/// This target re-exports `ImageCoding`, so code that imports `ImageCodecs`
/// sees the image types and the protocol too.
public struct CImageCodec: ImageCodec {
    /// Turn JPEGs upright per their EXIF orientation, as browsers do. Default `true`.
    public var appliesOrientation: Bool

    public init(appliesOrientation: Bool = true) {
        self.appliesOrientation = appliesOrientation
    }

    public var name: String { "libwebp+turbojpeg+spng+giflib+libavif" }

    /// Every format but HEIC: no HEVC decoder is linked here (HEIC is decoded
    /// where ImageIO is).
    public var decodableFormats: Set<ImageFormat> { Set(ImageFormat.allCases).subtracting([.heic]) }

    public func decode(
        _ data: Data, format: ImageFormat, limits: DecodingLimits
    ) throws(ImageCodecError) -> DecodedImage {
        try ImageDecoder(limits: limits, appliesOrientation: appliesOrientation).decode(data)
    }

    public func decodeStill(
        _ data: Data, format: ImageFormat, maxWidth: Int?, maxHeight: Int?, limits: DecodingLimits
    ) throws(ImageCodecError) -> Image {
        try ImageDecoder(limits: limits, appliesOrientation: appliesOrientation)
            .decodeStill(data, fittingWidth: maxWidth, height: maxHeight)
    }

    public func encode(_ image: Image, as encoding: StillEncoding) throws(ImageCodecError) -> Data {
        switch encoding {
        case .jpeg(let quality): try JPEGEncoder(options: .init(quality: quality)).encode(image)
        case .png(let level): try PNGEncoder(options: .init(compressionLevel: level)).encode(image)
        case .avif(let quality, let speed):
            try AVIFEncoder(options: .init(quality: quality, speed: speed)).encode(image)
        }
    }

    public func encodeAnimationAsAPNG(
        _ data: Data, format: ImageFormat, compressionLevel: Int, limits: DecodingLimits
    ) throws(ImageCodecError) -> Data? {
        // Frame by frame: decode one, encode it, drop it.
        guard let animation = try AnimationReader(data, limits: limits), animation.frameCount > 1 else { return nil }
        return try APNGEncoder(options: .init(compressionLevel: compressionLevel)).encode(animation)
    }

    public func makeProgressiveDecoder(limits: DecodingLimits) -> (any ProgressiveImageDecoder)? {
        WebPIncrementalDecoder(limits: limits)
    }
}

extension WebPIncrementalDecoder: ProgressiveImageDecoder {
    public func feed(_ chunk: Data) throws(ImageCodecError) -> (rows: Int, height: Int)? {
        switch try append(chunk) {
        case .waitingForHeaders: nil
        case .decoding(let rows, let height): (rows, height)
        case .complete: headerFeatures.map { ($0.height, $0.height) }
        }
    }
}
