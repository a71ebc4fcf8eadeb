import Foundation

/// The filter taps of one resampling dimension: for every destination
/// pixel, the first source pixel it reads and the normalised weights of the
/// consecutive source pixels from there. Computed once per resize.
struct ResamplingWeights {
    private(set) var firstSource: [Int] = []
    private(set) var tapCount: [Int] = []
    /// Weights of destination pixel `i` start at `i * stride`; the weights
    /// past a pixel's tap count are zero.
    private(set) var weights: [Float] = []
    /// A multiple of ``lanes``, so ``PlaneResizer`` reads the weights eight at a time.
    private(set) var stride = 0

    /// The width of the SIMD vectors that read the weights.
    static let lanes = 8

    /// - Parameter scale: Source pixels per destination pixel, when it is
    ///   not `source / destination`: a chroma plane is resampled at the
    ///   scale of the luma plane it belongs to, whatever its rounded size.
    /// - Parameter range: The destination pixels wanted, when not all of
    ///   them (a crop after the resize): contribution `0` is then the
    ///   range's first pixel, and nothing outside it is computed.
    init(
        source: Int, destination: Int, filter: ImageResizer.Filter, scale: Double? = nil,
        range: Range<Int>? = nil
    ) {
        let range = range ?? 0..<destination
        let scale = scale ?? Double(source) / Double(destination)
        let filterScale = max(scale, 1)
        let radius: Double
        switch filter {
        case .lanczos3: radius = 3 * filterScale
        case .areaAverage: radius = 0.5 * filterScale + 0.5
        }
        stride = (Int((2 * radius).rounded(.up)) + 2 + Self.lanes - 1) / Self.lanes * Self.lanes
        weights = [Float](repeating: 0, count: stride * range.count)
        firstSource.reserveCapacity(range.count)
        tapCount.reserveCapacity(range.count)
        var taps = [Double](repeating: 0, count: stride)

        for index in range {
            let slot = index - range.lowerBound
            let center = (Double(index) + 0.5) * scale
            let low = max(0, Int((center - radius).rounded(.down)))
            let high = min(source, Int((center + radius).rounded(.up)))
            var total = 0.0
            var count = 0
            for sourceIndex in low..<max(low, high) where count < stride {
                let weight: Double
                switch filter {
                case .lanczos3:
                    weight = Self.lanczos3((Double(sourceIndex) + 0.5 - center) / filterScale)
                case .areaAverage:
                    // Coverage of source pixel [j, j + 1) by the destination pixel's footprint.
                    let footprintLow = center - 0.5 * filterScale
                    let footprintHigh = center + 0.5 * filterScale
                    weight = max(
                        0, min(Double(sourceIndex + 1), footprintHigh) - max(Double(sourceIndex), footprintLow))
                }
                taps[count] = weight
                total += weight
                count += 1
            }
            // Trim zero taps at both ends so the inner loops do no useless work.
            var start = 0
            while start < count - 1 && taps[start] == 0 { start += 1 }
            var end = count
            while end > start + 1 && taps[end - 1] == 0 { end -= 1 }
            if total == 0 {
                // Cannot happen for these kernels; fall back to the nearest pixel.
                firstSource.append(max(0, min(Int(center), source - 1)))
                tapCount.append(1)
                weights[slot * stride] = 1
                continue
            }
            firstSource.append(low + start)
            tapCount.append(end - start)
            for tap in start..<end {
                weights[slot * stride + tap - start] = Float(taps[tap] / total)
            }
        }
    }

    /// The most taps any destination pixel reads.
    var maxTapCount: Int { tapCount.max() ?? 0 }

    /// The destination pixels these weights cover.
    var count: Int { firstSource.count }

    /// The most consecutive source pixels that must be at hand at once
    /// when destination pixels are made in order and each source pixel is
    /// filtered once, on first use: the rows a row-ring resizer keeps.
    var windowLength: Int {
        var window = 0
        var end = 0
        for index in 0..<firstSource.count {
            end = max(end, firstSource[index] + tapCount[index])
            window = max(window, end - firstSource[index])
        }
        return window
    }

    /// The first source index and weights of destination pixel `index`.
    func contribution(_ index: Int) -> (first: Int, weights: ArraySlice<Float>) {
        let start = index * stride
        return (firstSource[index], weights[start..<(start + tapCount[index])])
    }

    /// Filters one row: `destination[i] = Σ weight · source[first + tap]`.
    func apply(to source: UnsafeBufferPointer<SIMD4<Float>>, into destination: UnsafeMutablePointer<SIMD4<Float>>) {
        weights.withUnsafeBufferPointer { allWeights in
            firstSource.withUnsafeBufferPointer { firsts in
                tapCount.withUnsafeBufferPointer { counts in
                    // Empty only for an empty row or no destination pixels: nothing to filter.
                    guard let source = source.baseAddress, let allWeights = allWeights.baseAddress else { return }
                    for index in 0..<firsts.count {
                        // Even and odd taps in two sums: half as long a chain of dependent additions.
                        var even = SIMD4<Float>.zero
                        var odd = SIMD4<Float>.zero
                        let row = source + firsts[index]
                        let weights = allWeights + index * stride
                        let count = counts[index]
                        var tap = 0
                        while tap + 2 <= count {
                            even += row[tap] * weights[tap]
                            odd += row[tap + 1] * weights[tap + 1]
                            tap += 2
                        }
                        if tap < count { even += row[tap] * weights[tap] }
                        destination[index] = even + odd
                    }
                }
            }
        }
    }

    private static func lanczos3(_ x: Double) -> Double {
        let distance = abs(x)
        if distance < 1e-9 { return 1 }
        if distance >= 3 { return 0 }
        let piX = Double.pi * distance
        return 3 * sin(piX) * sin(piX / 3) / (piX * piX)
    }
}
