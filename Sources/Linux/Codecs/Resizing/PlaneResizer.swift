/// Resamples one plane of 8-bit samples (a Y, Cb or Cr plane) with the same
/// separable filters as ``ImageResizer``, eight samples at a time: a plane
/// is a quarter of an RGBA image's bytes, and there is no alpha to
/// premultiply.
///
/// Thread-safety: a value type with no shared state.
struct PlaneResizer {
    /// The kernel; ``ImageResizer``'s default.
    var filter: ImageResizer.Filter = .lanczos3

    /// A plane: its samples, rows top to bottom with no padding.
    struct Plane {
        var samples: UnsafeBufferPointer<UInt8>
        var width: Int
        var height: Int
    }

    /// How the filtered values become samples: `value * gain + offset`,
    /// rounded and clamped to 0…255 (a change of range, such as JPEG's full
    /// range to WebP's video range, folded into the resize).
    struct Mapping {
        var gain: Float = 1
        var offset: Float = 0
    }

    /// `plane` resampled to `width`×`height`.
    ///
    /// - Parameters:
    ///   - scaleX, scaleY: Source samples per destination sample; `nil` for
    ///     the ratio of the sizes. A chroma plane passes its luma plane's
    ///     ratio, so both planes sample the same points of the picture.
    /// - Precondition: all sizes are positive.
    func resize(
        _ plane: Plane, width: Int, height: Int, scaleX: Double? = nil, scaleY: Double? = nil,
        mapping: Mapping = Mapping()
    ) -> [UInt8] {
        precondition(plane.width > 0 && plane.height > 0 && width > 0 && height > 0, "plane sizes must be positive")
        let lanes = ResamplingWeights.lanes
        let horizontal = ResamplingWeights(source: plane.width, destination: width, filter: filter, scale: scaleX)
        let vertical = ResamplingWeights(source: plane.height, destination: height, filter: filter, scale: scaleY)
        // Rows of the intermediate are padded to whole vectors (with zeros) for the second pass.
        let paddedWidth = (width + lanes - 1) / lanes * lanes
        var middle = [Float](repeating: 0, count: paddedWidth * plane.height)
        // One source row as floats, with room past its end for the last pixel's whole vectors of taps.
        var row = [Float](repeating: 0, count: plane.width + horizontal.stride)
        middle.withUnsafeMutableBufferPointer { middle in
            row.withUnsafeMutableBufferPointer { row in
                Self.filterRows(plane, with: horizontal, row: row, into: middle, paddedWidth: paddedWidth)
            }
        }
        return [UInt8](unsafeUninitializedCapacity: width * height) { output, count in
            middle.withUnsafeBufferPointer { middle in
                Self.filterColumns(
                    middle, paddedWidth: paddedWidth, with: vertical, width: width, mapping: mapping, into: output)
            }
            count = width * height
        }
    }

    /// Pass 1: each source row filtered horizontally into `middle`.
    private static func filterRows(
        _ plane: Plane, with weights: ResamplingWeights, row: UnsafeMutableBufferPointer<Float>,
        into middle: UnsafeMutableBufferPointer<Float>, paddedWidth: Int
    ) {
        let lanes = ResamplingWeights.lanes
        let stride = weights.stride
        weights.weights.withUnsafeBufferPointer { allWeights in
            weights.firstSource.withUnsafeBufferPointer { firsts in
                weights.tapCount.withUnsafeBufferPointer { counts in
                    guard let allWeights = UnsafeRawPointer(allWeights.baseAddress),
                        let rowStart = row.baseAddress, let samples = plane.samples.baseAddress,
                        let middle = middle.baseAddress
                    else { return }
                    let rowBytes = UnsafeRawPointer(rowStart)
                    for y in 0..<plane.height {
                        let source = samples + y * plane.width
                        for x in 0..<plane.width { rowStart[x] = Float(source[x]) }
                        let out = middle + y * paddedWidth
                        for x in 0..<firsts.count {
                            let taps = rowBytes + firsts[x] * 4
                            let weights = allWeights + x * stride * 4
                            var sum = SIMD8<Float>.zero
                            var tap = 0
                            while tap < counts[x] {
                                sum +=
                                    taps.loadUnaligned(fromByteOffset: tap * 4, as: SIMD8<Float>.self)
                                    * weights.loadUnaligned(fromByteOffset: tap * 4, as: SIMD8<Float>.self)
                                tap += lanes
                            }
                            out[x] = sum.sum()
                        }
                    }
                }
            }
        }
    }

    /// Pass 2: each destination row as the weighted sum of intermediate rows,
    /// eight samples at a time, mapped and rounded to bytes.
    private static func filterColumns(
        _ middle: UnsafeBufferPointer<Float>, paddedWidth: Int, with weights: ResamplingWeights, width: Int,
        mapping: Mapping, into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        let lanes = ResamplingWeights.lanes
        guard let middle = UnsafeRawPointer(middle.baseAddress), let output = output.baseAddress else { return }
        let gain = SIMD8<Float>(repeating: mapping.gain)
        let offset = SIMD8<Float>(repeating: mapping.offset + 0.5)
        for y in 0..<weights.firstSource.count {
            let (first, taps) = weights.contribution(y)
            let out = output + y * width
            var x = 0
            while x < width {
                var sum = SIMD8<Float>.zero
                for tap in 0..<taps.count {
                    let sample = middle.loadUnaligned(
                        fromByteOffset: ((first + tap) * paddedWidth + x) * 4, as: SIMD8<Float>.self)
                    sum += sample * taps[taps.startIndex + tap]
                }
                var value = sum * gain + offset
                value = value.replacing(with: 0, where: value .< 0).replacing(with: 255, where: value .> 255)
                for lane in 0..<min(lanes, width - x) { out[x + lane] = UInt8(value[lane]) }
                x += lanes
            }
        }
    }
}
