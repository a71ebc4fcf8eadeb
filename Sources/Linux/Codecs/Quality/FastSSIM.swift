/// A fast structural similarity of two images' luma, measured as a metric
/// for searching an encoder's quality and not chosen: searched by it, the
/// smooth photos were called easy and lost up to 19.7 SSIMULACRA 2 points,
/// so the search scores by ``SSIMULACRA2`` (docs/benchmarks.md). ``SSIM``
/// stays the reference the demo reports; `webp-bridge compare` prints them
/// all.
///
/// What makes it fast: luma in 8 bits (``LumaPlane``), a 7×7 box window
/// whose sums slide across the plane in exact integers (two additions per
/// signal and pixel, whatever the window), and `Float` only for the SSIM
/// formula itself. What makes it rank encodes as perceptual metrics do: it
/// is averaged over ``defaultScales`` scales, each half the size of the one
/// before, so blur and blocking that a single fine scale under-weighs count
/// (Wang, Simoncelli and Bovik's multi-scale SSIM, 2003, with equal weights).
/// docs/benchmarks.md ("Quality chosen per image") has the speed and the
/// rank correlations with SSIMULACRA 2 and butteraugli it was chosen by.
///
/// Memory: 20 bytes per pixel of the larger plane while it runs (five
/// 32-bit sums), besides the two planes.
public enum FastSSIM {
    /// The window's side, in pixels.
    public static let window = 7
    /// Scales averaged by ``score(_:_:scales:)`` unless told otherwise.
    public static let defaultScales = 2

    /// The similarity of `distorted` to `reference`: 1 when identical, lower
    /// the more they differ (like SSIM, it can in principle go below 0).
    ///
    /// A scale smaller than the window in either direction is not counted;
    /// planes smaller than the window compare exactly (1 or 0).
    ///
    /// - Parameter scales: How many scales to average, 1 or more.
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when the sizes differ.
    public static func score(
        _ reference: LumaPlane, _ distorted: LumaPlane, scales: Int = defaultScales
    ) throws(ImageCodecError) -> Double {
        guard reference.width == distorted.width, reference.height == distorted.height else {
            throw ImageCodecError.invalidArgument(
                nil,
                "SSIM needs images of one size, got \(reference.width)x\(reference.height)"
                    + " and \(distorted.width)x\(distorted.height)")
        }
        guard reference.width >= window, reference.height >= window else {
            return reference.samples == distorted.samples ? 1 : 0
        }
        var first = reference
        var second = distorted
        var total = 0.0
        var counted = 0
        for scale in 0..<max(1, scales) {
            if scale > 0 {
                first = first.halved()
                second = second.halved()
            }
            guard first.width >= window, first.height >= window else { break }
            total += meanSSIM(first, second)
            counted += 1
        }
        return total / Double(counted)
    }

    /// The mean SSIM over every whole 7×7 window of one scale.
    static func meanSSIM(_ x: LumaPlane, _ y: LumaPlane) -> Double {
        let width = x.width
        let height = x.height
        let innerWidth = width - window + 1
        let innerHeight = height - window + 1
        // Horizontal window sums of x, y, x², y², xy for every row: exact in Int32 (7 × 255² < 2³¹).
        let plane = innerWidth * height
        var rows = [Int32](repeating: 0, count: 5 * plane)
        x.samples.withUnsafeBufferPointer { xs in
            y.samples.withUnsafeBufferPointer { ys in
                rows.withUnsafeMutableBufferPointer { out in
                    guard let xs = xs.baseAddress, let ys = ys.baseAddress, let out = out.baseAddress else { return }
                    for row in 0..<height {
                        let a = xs + row * width
                        let b = ys + row * width
                        let target = out + row * innerWidth
                        var sums: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
                        for column in 0..<window - 1 {
                            let p = Int32(a[column])
                            let q = Int32(b[column])
                            sums = (sums.0 + p, sums.1 + q, sums.2 + p * p, sums.3 + q * q, sums.4 + p * q)
                        }
                        for column in 0..<innerWidth {
                            let p = Int32(a[column + window - 1])
                            let q = Int32(b[column + window - 1])
                            sums = (sums.0 + p, sums.1 + q, sums.2 + p * p, sums.3 + q * q, sums.4 + p * q)
                            target[column] = sums.0
                            target[plane + column] = sums.1
                            target[2 * plane + column] = sums.2
                            target[3 * plane + column] = sums.3
                            target[4 * plane + column] = sums.4
                            let r = Int32(a[column])
                            let t = Int32(b[column])
                            sums = (sums.0 - r, sums.1 - t, sums.2 - r * r, sums.3 - t * t, sums.4 - r * t)
                        }
                    }
                }
            }
        }
        // Vertical sliding sums (exact: 49 × 255² < 2³¹), then the formula per window.
        let scale = 1 / Float(window * window)
        let c1 = Float((0.01 * 255) * (0.01 * 255))
        let c2 = Float((0.03 * 255) * (0.03 * 255))
        var total = 0.0
        var columnSums = [Int32](repeating: 0, count: 5 * innerWidth)
        rows.withUnsafeBufferPointer { rows in
            columnSums.withUnsafeMutableBufferPointer { sums in
                guard let rows = rows.baseAddress, let sums = sums.baseAddress else { return }
                for row in 0..<height {
                    for signal in 0..<5 {
                        let added = rows + signal * plane + row * innerWidth
                        let target = sums + signal * innerWidth
                        for column in 0..<innerWidth { target[column] &+= added[column] }
                    }
                    guard row >= window - 1 else { continue }
                    var rowTotal: Float = 0
                    for column in 0..<innerWidth {
                        let mx = Float(sums[column]) * scale
                        let my = Float(sums[innerWidth + column]) * scale
                        let vx = Float(sums[2 * innerWidth + column]) * scale - mx * mx
                        let vy = Float(sums[3 * innerWidth + column]) * scale - my * my
                        let cxy = Float(sums[4 * innerWidth + column]) * scale - mx * my
                        let numerator = (2 * mx * my + c1) * (2 * cxy + c2)
                        let denominator = (mx * mx + my * my + c1) * (vx + vy + c2)
                        rowTotal += numerator / denominator
                    }
                    total += Double(rowTotal)
                    // The row leaving the window.
                    for signal in 0..<5 {
                        let removed = rows + signal * plane + (row - window + 1) * innerWidth
                        let target = sums + signal * innerWidth
                        for column in 0..<innerWidth { target[column] &-= removed[column] }
                    }
                }
            }
        }
        return total / Double(innerWidth * innerHeight)
    }
}
