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
    /// ratio, never larger than the source: ``ImageGeometry/fittingSize(width:height:maxWidth:maxHeight:)``,
    /// the one rule every codec sizes by.
    public static func fittingSize(
        width: Int, height: Int, maxWidth: Int?, maxHeight: Int?
    ) -> (width: Int, height: Int) {
        ImageGeometry.fittingSize(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// Resamples `image` to `width`×`height`.
    ///
    /// - Returns: a new image; ``Image/hasAlpha`` is carried over.
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when a dimension is
    ///   not positive.
    public func resize(_ image: Image, width: Int, height: Int) throws(ImageCodecError) -> Image {
        try resize(image, width: width, height: height, columns: 0..<max(width, 0), rows: 0..<max(height, 0))
    }

    /// Resamples the top-left `extent` of `image` (in pixels, fractions
    /// allowed) to `width`×`height`: what a DCT-scaled decode needs, whose
    /// last column and row hold only a fraction of a pixel of the picture
    /// (1203 rows at 3/8 are 451.125 rows, decoded as 452). Scaled from the
    /// rounded-up size instead, the picture is stretched by that fraction
    /// and every pixel lands up to one output pixel off toward the far
    /// edges, which costs a photo tens of SSIMULACRA 2 points.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when a dimension is
    ///   not positive or `extent` is not within the image and more than a
    ///   pixel short of it on either side.
    public func resize(
        _ image: Image, width: Int, height: Int, extent: (width: Double, height: Double)
    ) throws(ImageCodecError) -> Image {
        try resize(
            image, width: width, height: height, columns: 0..<max(width, 0), rows: 0..<max(height, 0),
            extent: extent)
    }

    /// Resamples `image` to `width`×`height` and keeps only the pixels in
    /// `columns`×`rows` of the result: a crop after a resize, made in one
    /// pass, so the pixels cut away are never computed nor held.
    ///
    /// Row by row: each source row is filtered horizontally once, into a
    /// ring of the few rows the vertical filter still needs (its window,
    /// a handful for an enlargement), so the float intermediate is that
    /// window × the kept width × 16 bytes, never the whole image's.
    ///
    /// `extent`, when given, is the part of `image` the result shows, as
    /// in ``resize(_:width:height:extent:)``.
    ///
    /// - Returns: a `columns.count`×`rows.count` image; ``Image/hasAlpha``
    ///   is carried over.
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when a dimension is
    ///   not positive or the region is empty or outside the result.
    public func resize(
        _ image: Image, width: Int, height: Int, columns: Range<Int>, rows: Range<Int>,
        extent: (width: Double, height: Double)? = nil
    ) throws(ImageCodecError) -> Image {
        guard width > 0, height > 0 else {
            throw ImageCodecError.invalidArgument(nil, "resize target must be positive, got \(width)x\(height)")
        }
        guard !columns.isEmpty, !rows.isEmpty, columns.lowerBound >= 0, rows.lowerBound >= 0,
            columns.upperBound <= width, rows.upperBound <= height
        else {
            throw ImageCodecError.invalidArgument(
                nil, "region \(columns)x\(rows) is not inside the \(width)x\(height) result")
        }
        if let extent {
            func fits(_ part: Double, _ whole: Int) -> Bool { part > Double(whole - 1) && part <= Double(whole) }
            guard fits(extent.width, image.width), fits(extent.height, image.height) else {
                throw ImageCodecError.invalidArgument(
                    nil,
                    "extent \(extent.width)x\(extent.height) must be within \(image.width)x\(image.height)"
                        + " and less than a pixel short of it")
            }
        }
        let whole = extent.map { $0.width == Double(image.width) && $0.height == Double(image.height) } ?? true
        if whole && width == image.width && height == image.height {
            if columns.count == width && rows.count == height { return image }
            return image.cropped(columns: columns, rows: rows)
        }
        let horizontal = ResamplingWeights(
            source: image.width, destination: width, filter: filter,
            scale: extent.map { $0.width / Double(width) }, range: columns)
        let vertical = ResamplingWeights(
            source: image.height, destination: height, filter: filter,
            scale: extent.map { $0.height / Double(height) }, range: rows)
        // Premultiplying changes nothing where every pixel is opaque (JPEG, most photos): skip
        // it and the division per pixel that undoes it.
        let premultiplies = image.hasAlpha && !image.isOpaque
        let outputWidth = columns.count
        let outputHeight = rows.count
        let ringRows = max(1, vertical.windowLength)

        // Every ring element is written (a source row filtered horizontally) before it is read.
        var ring = [SIMD4<Float>](unsafeUninitializedCapacity: ringRows * outputWidth) { _, count in
            count = ringRows * outputWidth
        }
        var sourceRow = [SIMD4<Float>](repeating: .zero, count: image.width)
        let output = [UInt8](unsafeUninitializedCapacity: outputWidth * outputHeight * 4) { out, count in
            image.pixels.withUnsafeBytes { pixels in
                sourceRow.withUnsafeMutableBufferPointer { row in
                    ring.withUnsafeMutableBufferPointer { ring in
                        // Empty only for an image without pixels: nothing to filter.
                        guard let pixels = pixels.baseAddress, let ring = ring.baseAddress,
                            let out = UnsafeMutableRawPointer(out.baseAddress)
                        else { return }
                        var rowPointers = [UnsafePointer<SIMD4<Float>>](
                            repeating: UnsafePointer(ring), count: max(1, vertical.maxTapCount))
                        // The next source row to filter into the ring (row r lives in slot r % ringRows).
                        var next = 0
                        for y in 0..<outputHeight {
                            let (first, weights) = vertical.contribution(y)
                            next = max(next, first)
                            while next < first + weights.count {
                                Self.load(
                                    row: pixels + next * image.width * 4, into: row, premultiplies: premultiplies)
                                horizontal.apply(
                                    to: UnsafeBufferPointer(row), into: ring + (next % ringRows) * outputWidth)
                                next += 1
                            }
                            for tap in 0..<weights.count {
                                rowPointers[tap] = UnsafePointer(ring + ((first + tap) % ringRows) * outputWidth)
                            }
                            Self.filterColumns(
                                rows: rowPointers, weights: weights, width: outputWidth,
                                into: out + y * outputWidth * 4, premultiplied: premultiplies)
                        }
                    }
                }
            }
            count = outputWidth * outputHeight * 4
        }
        return Image(width: outputWidth, height: outputHeight, pixels: output, hasAlpha: image.hasAlpha)
    }

    /// One destination row: each pixel the weighted sum of the pixels above
    /// each other in `rows`. Four pixels at a time, so the four sums are
    /// independent and the additions overlap instead of waiting on each other.
    @inline(__always)
    private static func filterColumns(
        rows: [UnsafePointer<SIMD4<Float>>], weights: ArraySlice<Float>, width: Int, into out: UnsafeMutableRawPointer,
        premultiplied: Bool
    ) {
        let taps = weights.count
        let firstWeight = weights.startIndex
        var x = 0
        while x + 4 <= width {
            var sum0 = SIMD4<Float>.zero
            var sum1 = SIMD4<Float>.zero
            var sum2 = SIMD4<Float>.zero
            var sum3 = SIMD4<Float>.zero
            for tap in 0..<taps {
                let row = rows[tap] + x
                let weight = SIMD4<Float>(repeating: weights[firstWeight + tap])
                sum0 += row[0] * weight
                sum1 += row[1] * weight
                sum2 += row[2] * weight
                sum3 += row[3] * weight
            }
            store(sum0, into: out + x * 4, premultiplied: premultiplied)
            store(sum1, into: out + x * 4 + 4, premultiplied: premultiplied)
            store(sum2, into: out + x * 4 + 8, premultiplied: premultiplied)
            store(sum3, into: out + x * 4 + 12, premultiplied: premultiplied)
            x += 4
        }
        while x < width {
            var sum = SIMD4<Float>.zero
            for tap in 0..<taps { sum += rows[tap][x] * weights[firstWeight + tap] }
            store(sum, into: out + x * 4, premultiplied: premultiplied)
            x += 1
        }
    }

    /// One row of RGBA bytes as floats, premultiplied by alpha when asked.
    @inline(__always)
    private static func load(
        row: UnsafeRawPointer, into destination: UnsafeMutableBufferPointer<SIMD4<Float>>, premultiplies: Bool
    ) {
        for x in 0..<destination.count {
            // Element by element: the generic SIMD conversion initialisers are not vectorised.
            let bytes = row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
            var value = SIMD4<Float>(Float(bytes.x), Float(bytes.y), Float(bytes.z), Float(bytes.w))
            if premultiplies {
                let alpha = value.w
                value *= alpha * (1 / 255)
                value.w = alpha
            }
            destination[x] = value
        }
    }

    /// Un-premultiplies one pixel when asked, and rounds it to 8 bits.
    @inline(__always)
    private static func store(_ value: SIMD4<Float>, into out: UnsafeMutableRawPointer, premultiplied: Bool) {
        // Not `clamped(lowerBound:upperBound:)`: it is not inlined, and this runs once per pixel.
        var value = value.replacing(with: 0, where: value .< 0).replacing(with: 255, where: value .> 255)
        if premultiplied {
            let alpha8 = UInt8(value.w + 0.5)
            guard alpha8 > 0 else {
                out.storeBytes(of: .zero, as: SIMD4<UInt8>.self)
                return
            }
            let alpha = value.w
            value = (value * (255 / alpha)).replacing(with: 255, where: value * (255 / alpha) .> 255)
            value.w = alpha
        }
        let rounded = value + 0.5
        out.storeBytes(
            of: SIMD4<UInt8>(UInt8(rounded.x), UInt8(rounded.y), UInt8(rounded.z), UInt8(rounded.w)),
            as: SIMD4<UInt8>.self)
    }
}
