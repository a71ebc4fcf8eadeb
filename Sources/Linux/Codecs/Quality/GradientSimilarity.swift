/// The mean gradient-magnitude similarity of two images' luma at half size.
/// `--quality auto` searched by it before ``SSIMULACRA2``, which holds the
/// smooth photos it called easy (docs/benchmarks.md); `webp-bridge compare`
/// still prints it.
///
/// GMS as Xue, Zhang, Mou and Bovik define it ("Gradient Magnitude
/// Similarity Deviation", IEEE TIP 2014): Prewitt gradients (3×3, divided
/// by 3) of each luma plane halved by 2×2 means, and per pixel
/// `(2 m₁ m₂ + c) / (m₁² + m₂² + c)` with `c` = 170, averaged over the pixels
/// whose 3×3 neighbourhood lies inside the plane (the paper pools by the
/// deviation; the mean ranked the Kodak encodes across images closer to
/// SSIMULACRA 2: docs/benchmarks.md, "Quality chosen per image").
/// 1 when identical, lower the more the edges differ.
///
/// Memory: the two halved planes; the sums run in exact integers, `Float`
/// only for the similarity itself.
public enum GradientSimilarity {
    /// The paper's `c` for 8-bit samples.
    public static let constant: Float = 170

    /// The similarity of `distorted` to `reference`.
    ///
    /// Planes under 6×6 pixels (3×3 once halved) compare exactly (1 or 0).
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when the sizes differ.
    public static func score(_ reference: LumaPlane, _ distorted: LumaPlane) throws(ImageCodecError) -> Double {
        guard reference.width == distorted.width, reference.height == distorted.height else {
            throw ImageCodecError.invalidArgument(
                nil,
                "gradient similarity needs images of one size, got \(reference.width)x\(reference.height)"
                    + " and \(distorted.width)x\(distorted.height)")
        }
        guard reference.width >= 6, reference.height >= 6 else {
            return reference.samples == distorted.samples ? 1 : 0
        }
        let first = reference.halved()
        let second = distorted.halved()
        let width = first.width
        let height = first.height
        var total = 0.0
        first.samples.withUnsafeBufferPointer { a in
            second.samples.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for row in 1..<(height - 1) {
                    var rowTotal: Float = 0
                    for column in 1..<(width - 1) {
                        let first = magnitudeSquared(a, row: row, column: column, width: width)
                        let second = magnitudeSquared(b, row: row, column: column, width: width)
                        rowTotal += (2 * (first * second).squareRoot() + constant) / (first + second + constant)
                    }
                    total += Double(rowTotal)
                }
            }
        }
        return total / Double((width - 2) * (height - 2))
    }

    /// The squared Prewitt gradient magnitude at one inner pixel.
    @inline(__always)
    private static func magnitudeSquared(
        _ plane: UnsafePointer<UInt8>, row: Int, column: Int, width: Int
    ) -> Float {
        let above = plane + (row - 1) * width + column
        let here = above + width
        let below = here + width
        let left = Int32(above[-1]) + Int32(here[-1]) + Int32(below[-1])
        let right = Int32(above[1]) + Int32(here[1]) + Int32(below[1])
        let top = Int32(above[-1]) + Int32(above[0]) + Int32(above[1])
        let bottom = Int32(below[-1]) + Int32(below[0]) + Int32(below[1])
        let horizontal = right - left
        let vertical = bottom - top
        return Float(horizontal * horizontal + vertical * vertical) / 9
    }
}
