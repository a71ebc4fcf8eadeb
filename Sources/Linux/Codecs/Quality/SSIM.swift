import Foundation

/// The structural similarity index (SSIM) of two images' luma, as defined by
/// Wang, Bovik, Sheikh and Simoncelli (2004) and computed by scikit-image's
/// `structural_similarity(a, b, gaussian_weights=True, sigma=1.5,
/// use_sample_covariance=False, data_range=255)`:
///
/// - luma `Y = 0.299 R + 0.587 G + 0.114 B` in `Double`, unrounded (alpha ignored);
/// - local statistics under a Gaussian window of σ = 1.5 truncated at 3.5 σ
///   (radius 5, 11×11, applied separably), population covariance;
/// - K1 = 0.01, K2 = 0.03, L = 255;
/// - the mean of the SSIM map over the pixels whose window lies wholly inside
///   the image (scikit-image filters the whole image, then crops 5 pixels
///   from each edge before averaging — so the edge handling never matters).
public enum SSIM {
    /// The window's radius: `Int(3.5 * 1.5 + 0.5)`, as SciPy truncates.
    static let radius = 5
    static let kernel: [Double] = {
        let sigma = 1.5
        let raw = (-radius...radius).map { (offset: Int) -> Double in
            let distance = Double(offset)
            return exp(-0.5 * distance * distance / (sigma * sigma))
        }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }()

    /// The mean luma SSIM of two images of the same size: 1 for identical
    /// images, lower the more they differ.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when the sizes differ
    ///   or an image is smaller than the 11×11 window.
    public static func luma(_ first: Image, _ second: Image) throws(ImageCodecError) -> Double {
        guard first.width == second.width, first.height == second.height else {
            throw ImageCodecError.invalidArgument(
                nil,
                "SSIM needs images of one size, got \(first.width)x\(first.height) and \(second.width)x\(second.height)"
            )
        }
        let window = 2 * radius + 1
        guard first.width >= window, first.height >= window else {
            throw ImageCodecError.invalidArgument(
                nil, "SSIM needs images of at least \(window)x\(window) pixels, got \(first.width)x\(first.height)")
        }
        let width = first.width
        let height = first.height
        let x = lumaPlane(first)
        let y = lumaPlane(second)

        // Horizontal pass over the five signals (x, y, x², y², xy), keeping
        // only whole windows. Tap-outer loops let the compiler vectorise.
        let innerWidth = width - 2 * radius
        let innerHeight = height - 2 * radius
        let plane = innerWidth * height
        var rows = [Double](repeating: 0, count: 5 * plane)
        var products = [Double](repeating: 0, count: 3 * width)
        kernel.withUnsafeBufferPointer { k in
            x.withUnsafeBufferPointer { xs in
                y.withUnsafeBufferPointer { ys in
                    products.withUnsafeMutableBufferPointer { product in
                        rows.withUnsafeMutableBufferPointer { out in
                            // Empty only for images smaller than the window, which have no score.
                            guard let xs = xs.baseAddress, let ys = ys.baseAddress, let aa = product.baseAddress,
                                let out = out.baseAddress
                            else { return }
                            for row in 0..<height {
                                let a = xs + row * width
                                let b = ys + row * width
                                let bb = aa + width
                                let ab = bb + width
                                for column in 0..<width {
                                    aa[column] = a[column] * a[column]
                                    bb[column] = b[column] * b[column]
                                    ab[column] = a[column] * b[column]
                                }
                                let target = row * innerWidth
                                for (signal, source) in [a, b, UnsafePointer(aa), UnsafePointer(bb), UnsafePointer(ab)]
                                    .enumerated()
                                {
                                    let destination = out + signal * plane + target
                                    for tap in 0..<window {
                                        let weight = k[tap]
                                        let shifted = source + tap
                                        for column in 0..<innerWidth {
                                            destination[column] += weight * shifted[column]
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        // Vertical pass, then the SSIM formula, summed over the inner region.
        let c1 = (0.01 * 255) * (0.01 * 255)
        let c2 = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        var sums = [Double](repeating: 0, count: 5 * innerWidth)
        kernel.withUnsafeBufferPointer { k in
            rows.withUnsafeBufferPointer { filtered in
                sums.withUnsafeMutableBufferPointer { sum in
                    for row in 0..<innerHeight {
                        for index in 0..<sum.count { sum[index] = 0 }
                        for tap in 0..<window {
                            let weight = k[tap]
                            let source = (row + tap) * innerWidth
                            for signal in 0..<5 {
                                let from = signal * plane + source
                                let to = signal * innerWidth
                                for column in 0..<innerWidth {
                                    sum[to + column] += weight * filtered[from + column]
                                }
                            }
                        }
                        for column in 0..<innerWidth {
                            let mx = sum[column]
                            let my = sum[innerWidth + column]
                            let vx = sum[2 * innerWidth + column] - mx * mx
                            let vy = sum[3 * innerWidth + column] - my * my
                            let cxy = sum[4 * innerWidth + column] - mx * my
                            let numerator = (2 * mx * my + c1) * (2 * cxy + c2)
                            let denominator = (mx * mx + my * my + c1) * (vx + vy + c2)
                            total += numerator / denominator
                        }
                    }
                }
            }
        }
        return total / Double(innerWidth * innerHeight)
    }

    /// `0.299 R + 0.587 G + 0.114 B` of every pixel, unrounded.
    static func lumaPlane(_ image: Image) -> [Double] {
        [Double](unsafeUninitializedCapacity: image.pixelCount) { plane, initialized in
            image.pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<image.pixelCount {
                    plane[index] =
                        0.299 * Double(pixels[index * 4]) + 0.587 * Double(pixels[index * 4 + 1])
                        + 0.114 * Double(pixels[index * 4 + 2])
                }
            }
            initialized = image.pixelCount
        }
    }
}
