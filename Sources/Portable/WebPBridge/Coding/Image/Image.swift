/// A decoded still image: 8-bit RGBA, straight (not premultiplied) alpha,
/// rows top to bottom with no padding (`width * 4` bytes a row).
///
/// `Image` is a value type; copies share storage until one is mutated.
public struct Image: Sendable, Equatable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel.
    public var pixels: [UInt8]
    /// Whether the source carried an alpha channel. A source can declare alpha
    /// and still be fully opaque; use ``isOpaque`` to ask the pixels.
    public var hasAlpha: Bool

    /// Bytes in one row of ``pixels``.
    public var bytesPerRow: Int { width * 4 }

    /// Creates an image from RGBA bytes.
    ///
    /// - Precondition: `width` and `height` are positive and
    ///   `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8], hasAlpha: Bool) {
        precondition(width > 0 && height > 0, "image dimensions must be positive")
        precondition(pixels.count == width * height * 4, "pixel buffer must hold width * height * 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.hasAlpha = hasAlpha
    }

    /// Creates an image of one colour.
    public init(width: Int, height: Int, filledWith rgba: (UInt8, UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = rgba.0
            pixels[index + 1] = rgba.1
            pixels[index + 2] = rgba.2
            pixels[index + 3] = rgba.3
        }
        self.init(width: width, height: height, pixels: pixels, hasAlpha: rgba.3 != 255)
    }

    /// `true` when every pixel's alpha is 255, whatever ``hasAlpha`` says.
    /// This is what decides JPEG (opaque) versus PNG (transparent) output.
    public var isOpaque: Bool {
        pixels.withUnsafeBytes { raw in
            // Eight bytes (two pixels) at a time: every alpha byte must be 0xFF.
            let words = raw.count / 8
            let mask: UInt64 = 0xFF00_0000_FF00_0000
            var index = 0
            while index < words {
                if raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) & mask != mask { return false }
                index += 1
            }
            var offset = words * 8 + 3
            while offset < raw.count {
                if raw[offset] != 255 { return false }
                offset += 4
            }
            return true
        }
    }

    /// Number of pixels.
    public var pixelCount: Int { width * height }
}
