internal import CWebP
public import Foundation

/// What a WebP file's headers say, read without decoding pixels.
public struct WebPFeatures: Sendable, Equatable {
    /// How the image data is compressed.
    public enum Compression: String, Sendable {
        case lossy, lossless
        /// An animation whose frames mix both, or a format libwebp leaves undefined.
        case mixed
    }

    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// Whether the bitstream carries alpha.
    public var hasAlpha: Bool
    /// Whether the file is an animation.
    public var isAnimated: Bool
    /// Lossy, lossless or mixed.
    public var compression: Compression

    /// Reads the features of `data`.
    ///
    /// - Throws: ``ImageCodecError`` when the headers are truncated or invalid.
    public init(_ data: Data) throws(ImageCodecError) {
        self = try data.withRawBytes { raw throws(ImageCodecError) in try WebPFeatures(raw) }
    }

    init(_ raw: UnsafeRawBufferPointer) throws(ImageCodecError) {
        guard raw.count >= 12, raw.starts(with: ImageFormat.riffMagic) else {
            throw ImageCodecError.corrupt(.webp, "missing RIFF header")
        }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(try WebPStatus.bytes(of: raw), raw.count, &features)
        try WebPStatus.check(
            status, operation: "reading WebP headers", byteCount: raw.count,
            declaredSize: WebPStatus.declaredFileSize(raw))
        width = Int(features.width)
        height = Int(features.height)
        hasAlpha = features.has_alpha != 0
        isAnimated = features.has_animation != 0
        compression =
            switch features.format {
            case 1: .lossy
            case 2: .lossless
            default: .mixed
            }
    }
}

extension WebPFeatures {
    /// Bytes a pixel that libwebp holds for the whole of a still it decodes
    /// to any size, when the still is lossless (its ARGB picture) or lossy
    /// with alpha (its alpha plane and the alpha's own lossless decode):
    /// 5, from the growth of `convert --width 100`'s peak RSS over a
    /// 5760×3600 photo, 4.6 bytes a pixel lossless and 4.9 lossy with
    /// alpha, against none for the same photo lossy and opaque, whose
    /// macroblocks go to the rescaler a row at a time
    /// (docs/work-budget.md).
    public static let wholeImageBytesPerPixel = 5

    /// What decoding this still holds for the whole image whatever size it
    /// is decoded at (``wholeImageBytesPerPixel`` a pixel), 0 for an opaque
    /// lossy one.
    public var wholeImageDecoderBytes: Int {
        compression == .lossy && !hasAlpha ? 0 : width * height * Self.wholeImageBytesPerPixel
    }
}
