public import Foundation

/// Decodes PNG with libspng into an 8-bit RGBA ``Image``.
///
/// Every PNG colour type and bit depth is converted to RGBA8: palette, grey,
/// grey + alpha and truecolour, 1 to 16 bits a sample (16-bit samples keep
/// their high byte), with tRNS applied. No gamma correction. An APNG decodes
/// as its default image; use ``APNGDecoder`` for the animation.
///
/// Limits are checked from IHDR before the pixel buffer is allocated; libspng's
/// own chunk limits stop compressed-text bombs.
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct PNGDecoder: Sendable {
    /// The limits checked before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes `data` as a PNG.
    ///
    /// - Returns: RGBA8 pixels; ``Image/hasAlpha`` is `true` when the file has
    ///   an alpha channel or a tRNS chunk.
    /// - Throws: ``ImageCodecError`` — `.limitExceeded` for input, dimensions
    ///   or metadata chunks beyond the limits; `.truncated` or `.corrupt` for
    ///   damaged data, with libspng's message.
    public func decode(_ data: Data) throws(ImageCodecError) -> Image {
        try limits.checkInput(byteCount: data.count, format: .png)
        return try data.withByteBuffer { bytes throws(ImageCodecError) in
            try decode(UnsafeRawBufferPointer(bytes), format: .png)
        }
    }

    /// Reads the header of a PNG or APNG without decoding pixels: IHDR, tRNS
    /// and `acTL`.
    ///
    /// - Throws: ``ImageCodecError`` when the header is missing or damaged.
    public static func readHeader(_ data: Data) throws(ImageCodecError) -> PNGHeader {
        try data.withByteBuffer { bytes throws(ImageCodecError) in
            let context = try SPNGContext.decoder(reading: UnsafeRawBufferPointer(bytes), format: .png)
            let header = try context.header()
            let hasTransparencyChunk = try context.hasTransparencyChunk()
            let hasAlpha = header.colorTypeHasAlpha || hasTransparencyChunk
            let control = APNGDecoder.animationControl(in: bytes)
            return PNGHeader(
                width: header.width, height: header.height, hasAlpha: hasAlpha, bitDepth: header.bitDepth,
                frameCount: control?.frameCount ?? 1, loopCount: control?.loopCount)
        }
    }

    /// Decodes a PNG held in `bytes`, naming `format` in errors (APNG frames
    /// are decoded as standalone PNGs).
    func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImageCodecError) -> Image {
        let context = try SPNGContext.decoder(reading: bytes, format: format)
        let header = try context.header()
        try limits.checkFrame(width: header.width, height: header.height, format: format)
        let hasTransparencyChunk = try context.hasTransparencyChunk()
        let hasAlpha = header.colorTypeHasAlpha || hasTransparencyChunk
        let pixels = try context.decodeRGBA8()
        guard pixels.count == header.width * header.height * 4 else {
            throw ImageCodecError.corrupt(
                format, "libspng returned \(pixels.count) bytes for \(header.width)x\(header.height)")
        }
        return Image(width: header.width, height: header.height, pixels: pixels, hasAlpha: hasAlpha)
    }
}
