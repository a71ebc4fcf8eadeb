public import Foundation

/// Encodes an ``Image`` as an 8-bit PNG with libspng.
///
/// An image whose pixels are all opaque is written as RGB (colour type 2),
/// whatever its ``Image/hasAlpha`` says; any other as RGBA (colour type 6).
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct PNGEncoder: Sendable {
    /// Encoder settings.
    public struct Options: Sendable, Equatable {
        /// zlib compression level, 0 (store) to 9 (smallest). Default 6,
        /// zlib's own default: within a few percent of 9 at a fraction of the time.
        public var compressionLevel: Int

        /// Creates options; `compressionLevel` must be in 0...9.
        public init(compressionLevel: Int = 6) {
            self.compressionLevel = compressionLevel
        }

        /// The defaults above.
        public static let `default` = Options()
    }

    /// The settings used by ``encode(_:)``.
    public var options: Options

    /// Creates an encoder.
    public init(options: Options = .default) {
        self.options = options
    }

    /// Encodes `image` as PNG.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` for a compression
    ///   level outside 0...9, `.encodingFailed` when libspng fails.
    public func encode(_ image: Image) throws(ImageCodecError) -> Data {
        Data(try encodeBytes(image))
    }

    /// The PNG bytes of `image`, as an array (the APNG encoder takes them apart).
    func encodeBytes(_ image: Image, forceAlpha: Bool = false, format: ImageFormat = .png) throws(ImageCodecError)
        -> [UInt8]
    {
        guard (0...9).contains(options.compressionLevel) else {
            throw ImageCodecError.invalidArgument(
                format, "PNG compression level must be 0 to 9, got \(options.compressionLevel)")
        }
        let writesAlpha = forceAlpha || !image.isOpaque
        let context = try SPNGContext.encoder(format: format)
        if writesAlpha {
            return try image.pixels.withUnsafeBufferPointer { samples throws(ImageCodecError) in
                try context.encode(
                    samples, width: image.width, height: image.height, hasAlpha: true,
                    compressionLevel: options.compressionLevel)
            }
        }
        let rgb = Self.rgbSamples(of: image)
        return try rgb.withUnsafeBufferPointer { samples throws(ImageCodecError) in
            try context.encode(
                samples, width: image.width, height: image.height, hasAlpha: false,
                compressionLevel: options.compressionLevel)
        }
    }

    /// The RGB bytes of `image`, dropping alpha.
    static func rgbSamples(of image: Image) -> [UInt8] {
        let count = image.pixelCount
        return [UInt8](unsafeUninitializedCapacity: count * 3) { rgb, initialized in
            image.pixels.withUnsafeBufferPointer { rgba in
                for pixel in 0..<count {
                    rgb[pixel * 3] = rgba[pixel * 4]
                    rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]
                    rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]
                }
            }
            initialized = count * 3
        }
    }
}
