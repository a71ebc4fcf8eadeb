public import Foundation

/// Decodes any supported format, chosen by sniffing the bytes.
public struct ImageDecoder: Sendable {
    /// Bounds applied to every format.
    public var limits: DecodingLimits
    /// Turn JPEGs upright per their EXIF orientation, as browsers do. Default `true`.
    public var appliesOrientation: Bool

    public init(limits: DecodingLimits = .default, appliesOrientation: Bool = true) {
        self.limits = limits
        self.appliesOrientation = appliesOrientation
    }

    /// Decodes `data`: animations (animated WebP, APNG, GIF of several frames)
    /// to ``DecodedImage/animated(_:)``, everything else to ``DecodedImage/still(_:)``.
    ///
    /// - Throws: ``ImageCodecError``, including ``ImageCodecError/Kind/unknownFormat``.
    public func decode(_ data: Data) throws(ImageCodecError) -> DecodedImage {
        let sniffed = ImageFormat.sniffIfImage(data)
        try limits.checkInput(byteCount: data.count, format: sniffed)
        // Sniffed once; `sniff` runs again only to build the unknown-format error.
        // (Not `??`: its autoclosure would erase the error's type.)
        let format: ImageFormat
        if let sniffed { format = sniffed } else { format = try ImageFormat.sniff(data) }
        switch format {
        case .webp:
            return try WebPDecoder(limits: limits).decodeAny(data)
        case .jpeg:
            return .still(
                try JPEGDecoder(limits: limits).decode(data, options: .init(appliesOrientation: appliesOrientation)))
        case .png:
            return .still(try PNGDecoder(limits: limits).decode(data))
        case .apng:
            let animation = try APNGDecoder(limits: limits).decode(data)
            return animation.frames.count == 1 ? .still(animation.frames[0].image) : .animated(animation)
        case .gif:
            return try GIFDecoder(limits: limits).decode(data)
        case .avif:
            // An image sequence is shown as its first frame (a still path only).
            return .still(try AVIFDecoder(limits: limits).decode(data))
        case .heic:
            throw Self.heicUnsupported
        }
    }

    /// Decodes a still image scaled to fit inside `maxWidth`×`maxHeight`
    /// (never enlarged), using each codec's cheapest path: libwebp's scaler,
    /// TurboJPEG's DCT scaling, otherwise a full decode and ``ImageResizer``.
    /// An animation yields its first frame, and only that frame is decoded.
    public func decodeStill(_ data: Data, fittingWidth maxWidth: Int? = nil, height maxHeight: Int? = nil)
        throws(ImageCodecError)
        -> Image
    {
        let format = try ImageFormat.sniff(data)
        try limits.checkInput(byteCount: data.count, format: format)
        let unbounded = maxWidth == nil && maxHeight == nil
        switch format {
        case .webp where unbounded:
            return try WebPDecoder(limits: limits).decode(data)
        case .webp:
            return try WebPDecoder(limits: limits).decode(data, fittingWidth: maxWidth, height: maxHeight)
        case .jpeg:
            let options = JPEGDecoder.Options(
                fitting: unbounded ? nil : (maxWidth, maxHeight), appliesOrientation: appliesOrientation)
            return try JPEGDecoder(limits: limits).decode(data, options: options)
        case .avif:
            return try AVIFDecoder(limits: limits).decode(data, fittingWidth: maxWidth, height: maxHeight)
        case .heic:
            throw Self.heicUnsupported
        default:
            // An animation's first frame is decoded alone, never the frames after it.
            let image: Image
            if let reader = try AnimationReader(data, limits: limits) {
                image = try reader.firstFrame()
            } else {
                image = try decode(data).firstFrame
            }
            let size = ImageResizer.fittingSize(
                width: image.width, height: image.height, maxWidth: maxWidth, maxHeight: maxHeight)
            return try ImageResizer().resize(image, width: size.width, height: size.height)
        }
    }

    /// What decoding HEIC answers here: sniffed like every format, but no
    /// HEVC decoder is linked on Linux.
    static let heicUnsupported = ImageCodecError(
        .unsupported, format: .heic,
        "HEIC is decoded only where ImageIO is (Apple platforms): the Linux codecs have no HEVC decoder")
}
