/// Resizes RGBA images with a separable filter (two passes, horizontal then
/// vertical), in premultiplied alpha so that transparent pixels' colours do
/// not bleed into their neighbours as dark halos.
///
/// Downscaling widens the filter by the scale factor, so every source pixel
/// contributes (no aliasing); upscaling interpolates with the plain kernel.
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct ImageResizer: Sendable {
    /// The resampling kernel.
    public enum Filter: Sendable, Hashable {
        /// Lanczos with 3 lobes: sharp, the usual choice for photos.
        case lanczos3
        /// Area averaging (a box filter): every output pixel is the
        /// coverage-weighted mean of the source pixels it covers. Softer,
        /// never rings.
        case areaAverage
    }

    /// The kernel used by ``resize(_:width:height:)``.
    public var filter: Filter

    /// Creates a resizer.
    public init(filter: Filter = .lanczos3) {
        self.filter = filter
    }

    /// The size that fits inside `maxWidth`×`maxHeight` keeping the aspect
    /// ratio, never larger than the source. A `nil` bound does not constrain.
    ///
    /// - Parameters:
    ///   - width, height: the source size (positive).
    ///   - maxWidth, maxHeight: the box to fit in; values below 1 count as 1.
    /// - Returns: at least 1×1.
    public static func fittingSize(
        width: Int, height: Int, maxWidth: Int?, maxHeight: Int?
    ) -> (width: Int, height: Int) {
        let boundWidth = max(maxWidth ?? width, 1)
        let boundHeight = max(maxHeight ?? height, 1)
        guard width > boundWidth || height > boundHeight else { return (width, height) }
        // Compare boundWidth/width with boundHeight/height without rounding.
        if boundWidth * height <= boundHeight * width {
            return (boundWidth, max(1, (height * boundWidth + width / 2) / width))
        }
        return (max(1, (width * boundHeight + height / 2) / height), boundHeight)
    }

    /// Resamples `image` to `width`×`height`.
    ///
    /// - Returns: a new image; ``Image/hasAlpha`` is carried over.
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when a dimension is
    ///   not positive.
    public func resize(_ image: Image, width: Int, height: Int) throws(ImageCodecError) -> Image {
        guard width > 0, height > 0 else {
            throw ImageCodecError.invalidArgument(nil, "resize target must be positive, got \(width)x\(height)")
        }
        if width == image.width && height == image.height { return image }
        let horizontal = ResamplingWeights(source: image.width, destination: width, filter: filter)
        let vertical = ResamplingWeights(source: image.height, destination: height, filter: filter)

        // Pass 1: each source row, premultiplied, filtered horizontally.
        var intermediate = [SIMD4<Float>](repeating: .zero, count: width * image.height)
        var sourceRow = [SIMD4<Float>](repeating: .zero, count: image.width)
        image.pixels.withUnsafeBufferPointer { pixels in
            intermediate.withUnsafeMutableBufferPointer { middle in
                sourceRow.withUnsafeMutableBufferPointer { row in
                    // Empty only for an image without rows: nothing to filter.
                    guard let middle = middle.baseAddress else { return }
                    for y in 0..<image.height {
                        let rowStart = y * image.width * 4
                        for x in 0..<image.width {
                            let offset = rowStart + x * 4
                            let alpha = Float(pixels[offset + 3])
                            let scale = alpha * (1 / 255)
                            row[x] = SIMD4(
                                Float(pixels[offset]) * scale, Float(pixels[offset + 1]) * scale,
                                Float(pixels[offset + 2]) * scale, alpha)
                        }
                        horizontal.apply(to: UnsafeBufferPointer(row), into: middle + y * width)
                    }
                }
            }
        }

        // Pass 2: each destination row as a weighted sum of intermediate rows.
        var output = [UInt8](repeating: 0, count: width * height * 4)
        var accumulator = [SIMD4<Float>](repeating: .zero, count: width)
        intermediate.withUnsafeBufferPointer { middle in
            output.withUnsafeMutableBufferPointer { out in
                accumulator.withUnsafeMutableBufferPointer { sum in
                    guard let middle = middle.baseAddress else { return }
                    for y in 0..<height {
                        for x in 0..<width { sum[x] = .zero }
                        let (first, weights) = vertical.contribution(y)
                        for (tap, weight) in weights.enumerated() {
                            let source = middle + (first + tap) * width
                            for x in 0..<width { sum[x] += source[x] * weight }
                        }
                        let rowStart = y * width * 4
                        for x in 0..<width {
                            Self.store(sum[x], into: out, at: rowStart + x * 4)
                        }
                    }
                }
            }
        }
        return Image(width: width, height: height, pixels: output, hasAlpha: image.hasAlpha)
    }

    /// Un-premultiplies one pixel and rounds it to 8 bits.
    @inline(__always)
    private static func store(_ value: SIMD4<Float>, into out: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let alpha = min(max(value.w, 0), 255)
        let alpha8 = UInt8(alpha + 0.5)
        guard alpha8 > 0 else {
            out[offset] = 0
            out[offset + 1] = 0
            out[offset + 2] = 0
            out[offset + 3] = 0
            return
        }
        let colour = value * (255 / alpha)
        out[offset] = UInt8(min(max(colour.x, 0), 255) + 0.5)
        out[offset + 1] = UInt8(min(max(colour.y, 0), 255) + 0.5)
        out[offset + 2] = UInt8(min(max(colour.z, 0), 255) + 0.5)
        out[offset + 3] = alpha8
    }
}
