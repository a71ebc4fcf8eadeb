import Foundation

extension SSIMULACRA2 {
    /// The planes one score works in, made once for an image size and
    /// reused for every candidate, background, scale and channel, so a
    /// quality search's trials allocate nothing (a fresh plane's first-touch
    /// page faults had cost a WebP search on the demo photos about a tenth
    /// of its time): 47 bytes a pixel, in one buffer (from a ``PlanePool``
    /// when given one, and given back to it at the end). Linear RGB at the
    /// even scales (12; scale 2 is a sixteenth of scale 0, so it fits where
    /// scale 0 was) and at the odd ones (3), the current scale's XYB (12),
    /// and five working planes (20). One thread at a time.
    final class Workspace {
        let width: Int
        let height: Int
        /// Pixels at the full scale, and at the half one.
        private let fullCount: Int
        private let halfCount: Int
        /// The one buffer every plane below is in.
        private let lease: PlanePool.Lease
        private let evenScales: UnsafeMutablePointer<Float>
        private let oddScales: UnsafeMutablePointer<Float>
        private let xybPlanes: UnsafeMutablePointer<Float>
        let down: UnsafeMutablePointer<Float>
        let mean: UnsafeMutablePointer<Float>
        let product: UnsafeMutablePointer<Float>
        let variance: UnsafeMutablePointer<Float>
        let covariance: UnsafeMutablePointer<Float>

        /// The floats a `width`×`height` workspace holds.
        static func floats(width: Int, height: Int) -> Int {
            11 * width * height + 3 * ((width + 1) / 2) * ((height + 1) / 2)
        }

        init(width: Int, height: Int, pool: PlanePool? = nil) {
            precondition(width >= minimumSide && height >= minimumSide, "a scored side is at least 8 pixels")
            self.width = width
            self.height = height
            fullCount = width * height
            halfCount = ((width + 1) / 2) * ((height + 1) / 2)
            let lease = PlanePool.Lease(floats: Self.floats(width: width, height: height), from: pool)
            self.lease = lease
            var next = lease.plane(0)
            func planes(_ count: Int) -> UnsafeMutablePointer<Float> {
                defer { next += count }
                return next
            }
            evenScales = planes(3 * fullCount)
            oddScales = planes(3 * halfCount)
            xybPlanes = planes(3 * fullCount)
            (down, mean, product, variance, covariance) = (
                planes(fullCount), planes(fullCount), planes(fullCount), planes(fullCount), planes(fullCount)
            )
        }

        /// The XYB plane of `channel` (X, Y, B) at the scale ``walk(_:background:scales:_:)`` is at.
        func xyb(_ channel: Int) -> UnsafeMutablePointer<Float> { xybPlanes + channel * fullCount }

        /// The linear red, green and blue planes of `scale`.
        private func linear(_ scale: Int) -> (
            UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
            UnsafeMutablePointer<Float>
        ) {
            let (base, stride) = scale % 2 == 0 ? (evenScales, fullCount) : (oddScales, halfCount)
            return (base, base + stride, base + 2 * stride)
        }

        /// `image` (this workspace's size) in linear light, then each of its
        /// first `scales` scales in turn: the scale's XYB planes (``xyb(_:)``)
        /// made, then `body(scale, width, height)` called.
        func walk(_ image: Image, background: Float?, scales: Int, _ body: (Int, Int, Int) -> Void) {
            precondition(image.width == width && image.height == height, "workspace size")
            load(image, background: background)
            var size = (width: width, height: height)
            for scale in 0..<scales {
                let (red, green, blue) = linear(scale)
                Self.convertToXYB(
                    red, green, blue, count: size.width * size.height, into: xyb(0), xyb(1), xyb(2))
                body(scale, size.width, size.height)
                if scale < scales - 1 {
                    let (nextRed, nextGreen, nextBlue) = linear(scale + 1)
                    for (plane, half) in [(red, nextRed), (green, nextGreen), (blue, nextBlue)] {
                        Self.halve(plane, width: size.width, height: size.height, into: half)
                    }
                    size = ((size.width + 1) / 2, (size.height + 1) / 2)
                }
            }
        }

        /// sRGB's transfer function inverted, for each 8-bit value.
        static let linearFromSRGB: [Float] = (0...255).map { (value: Int) -> Float in
            let encoded = Double(value) / 255
            return Float(encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4))
        }

        /// `image` in linear light into scale 0's planes; over `background`
        /// (a linear level) when given, its alpha otherwise ignored.
        private func load(_ image: Image, background: Float?) {
            let (red, green, blue) = linear(0)
            let table = Self.linearFromSRGB
            image.pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<fullCount {
                    var r = table[Int(pixels[4 * index])]
                    var g = table[Int(pixels[4 * index + 1])]
                    var b = table[Int(pixels[4 * index + 2])]
                    if let background {
                        let alpha = Float(pixels[4 * index + 3]) / 255
                        r = alpha * r + (1 - alpha) * background
                        g = alpha * g + (1 - alpha) * background
                        b = alpha * b + (1 - alpha) * background
                    }
                    red[index] = r
                    green[index] = g
                    blue[index] = b
                }
            }
        }

        /// `input` at half its size, rounded up, into `output`: each value
        /// the mean of its 2×2 block, or of the part of it inside the image
        /// at the right and bottom edges (summed in reading order).
        static func halve(
            _ input: UnsafePointer<Float>, width: Int, height: Int, into output: UnsafeMutablePointer<Float>
        ) {
            let halfWidth = (width + 1) / 2
            let pairs = width / 2
            for row in 0..<((height + 1) / 2) {
                let top = input + 2 * row * width
                let out = output + row * halfWidth
                if 2 * row + 1 < height {
                    let bottom = top + width
                    for column in 0..<pairs {
                        out[column] =
                            (top[2 * column] + top[2 * column + 1] + bottom[2 * column] + bottom[2 * column + 1]) / 4
                    }
                    if pairs < halfWidth { out[pairs] = (top[2 * pairs] + bottom[2 * pairs]) / 2 }
                } else {
                    for column in 0..<pairs { out[column] = (top[2 * column] + top[2 * column + 1]) / 2 }
                    if pairs < halfWidth { out[pairs] = top[2 * pairs] }
                }
            }
        }

        /// `count` linear pixels' positive XYB (X, Y, B planes).
        static func convertToXYB(
            _ red: UnsafePointer<Float>, _ green: UnsafePointer<Float>, _ blue: UnsafePointer<Float>, count: Int,
            into x: UnsafeMutablePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>
        ) {
            var index = 0
            // Eight at a time; the rest one by one, by the same arithmetic.
            while index + 8 <= count {
                let values = xyb(Lanes.load(red, index), Lanes.load(green, index), Lanes.load(blue, index))
                Lanes.store(values.x, x, index)
                Lanes.store(values.y, y, index)
                Lanes.store(values.b, b, index)
                index += 8
            }
            while index < count {
                let values = xyb(
                    Lanes(repeating: red[index]), Lanes(repeating: green[index]), Lanes(repeating: blue[index]))
                x[index] = values.x[0]
                y[index] = values.y[0]
                b[index] = values.b[0]
                index += 1
            }
        }

        /// The opsin matrix's last row (its others are exact in a few digits).
        static let m20: Float = 0.243_422_689_245_478_19
        static let m21: Float = 0.204_767_444_244_968_21
        static let m22: Float = Float(1 - 0.243_422_689_245_478_19 - 0.204_767_444_244_968_21)

        static let bias: Float = 0.003_793_073_255_275_449_3
        static let biasRoot = Float(cbrt(Double(bias)))

        /// Eight pixels' positive XYB from linear RGB.
        @inline(__always)
        static func xyb(_ r: Lanes, _ g: Lanes, _ bl: Lanes) -> (x: Lanes, y: Lanes, b: Lanes) {
            // Linear light is never negative, so each mix is at least the bias: no clamp at 0 is needed.
            let mixed0 = cubeRoot(0.30 * r + 0.622 * g + 0.078 * bl + bias) - biasRoot
            let mixed1 = cubeRoot(0.23 * r + 0.692 * g + 0.078 * bl + bias) - biasRoot
            let mixed2 = cubeRoot(m20 * r + m21 * g + m22 * bl + bias) - biasRoot
            let xValue = 0.5 * (mixed0 - mixed1)
            let yValue = 0.5 * (mixed0 + mixed1)
            return (xValue * 14 + 0.42, yValue + 0.01, (mixed2 - yValue) + 0.55)
        }

        /// The real cube roots of eight values of at least ``bias`` (the
        /// opsin bias keeps them there), to `Float` precision: an
        /// exponent-third first guess, then Newton steps.
        @inline(__always)
        static func cubeRoot(_ value: Lanes) -> Lanes {
            let bits = unsafeBitCast(value, to: SIMD8<UInt32>.self)
            var root = unsafeBitCast(bits / 3 &+ 709_921_077, to: Lanes.self)
            for _ in 0..<3 { root = (2 * root + value / (root * root)) / 3 }
            return root
        }
    }

    /// Eight `Float`s, the width the loops above and in ``SSIMULACRA2`` work in.
    typealias Lanes = SIMD8<Float>

    /// The package's Gaussian: σ = 1.5, 11 taps, reflected at the top and
    /// bottom (`d c b a | a b c d`), zero beyond the sides. (The package
    /// pads its first axis with zeros, and its planes are transposed there:
    /// `linear.T` in its XYB conversion.)
    enum Blur {
        static let radius = 5
        static let kernel: [Float] = {
            let raw = (-radius...radius).map { (offset: Int) -> Double in
                exp(-0.5 * Double(offset * offset) / (1.5 * 1.5))
            }
            let total = raw.reduce(0, +)
            return raw.map { Float($0 / total) }
        }()

        /// `input` (`width`×`height`, both at least 8) blurred into
        /// `output`, by way of `down` (as large, its contents overwritten):
        /// what a score calls with buffers it reuses for every plane, so no
        /// plane costs an allocation and its first-touch page faults.
        ///
        /// Each pass writes every output once from the eleven inputs it
        /// weighs, pairing the taps the kernel's symmetry makes equal, so the
        /// loops run over contiguous values the compiler vectorizes.
        static func apply(
            _ input: UnsafePointer<Float>, width: Int, height: Int, into output: UnsafeMutablePointer<Float>,
            through down: UnsafeMutablePointer<Float>
        ) {
            let k = kernel
            let (k0, k1, k2, k3, k4, k5) = (k[5], k[4], k[3], k[2], k[1], k[0])
            // Down the columns, reflected at the top and bottom.
            for row in 0..<height {
                func at(_ offset: Int) -> UnsafePointer<Float> {
                    input + reflected(row + offset, height) * width
                }
                let (m5, m4, m3, m2, m1) = (at(-5), at(-4), at(-3), at(-2), at(-1))
                let (p1, p2, p3, p4, p5) = (at(1), at(2), at(3), at(4), at(5))
                let center = at(0)
                let out = down + row * width
                for column in 0..<width {
                    var sum = k0 * center[column]
                    sum += k1 * (m1[column] + p1[column])
                    sum += k2 * (m2[column] + p2[column])
                    sum += k3 * (m3[column] + p3[column])
                    sum += k4 * (m4[column] + p4[column])
                    sum += k5 * (m5[column] + p5[column])
                    out[column] = sum
                }
            }
            // Then across each row, zero beyond the sides.
            for row in 0..<height {
                let line = UnsafePointer(down + row * width)
                let out = output + row * width
                for column in 0..<min(radius, width) {
                    out[column] = edgeSum(line, column, width)
                }
                if width > 2 * radius {
                    for column in radius..<(width - radius) {
                        var sum = k0 * line[column]
                        sum += k1 * (line[column - 1] + line[column + 1])
                        sum += k2 * (line[column - 2] + line[column + 2])
                        sum += k3 * (line[column - 3] + line[column + 3])
                        sum += k4 * (line[column - 4] + line[column + 4])
                        sum += k5 * (line[column - 5] + line[column + 5])
                        out[column] = sum
                    }
                }
                for column in max(radius, width - radius)..<width {
                    out[column] = edgeSum(line, column, width)
                }
            }
        }

        /// One value near a side, the taps beyond it counting 0.
        private static func edgeSum(_ line: UnsafePointer<Float>, _ column: Int, _ width: Int) -> Float {
            var sum: Float = 0
            for tap in 0...(2 * radius) {
                let source = column + tap - radius
                if source >= 0, source < width { sum += kernel[tap] * line[source] }
            }
            return sum
        }

        /// `index` reflected into `0..<count` (half-sample symmetric).
        @inline(__always)
        static func reflected(_ index: Int, _ count: Int) -> Int {
            var index = index
            while index < 0 || index >= count {
                index = index < 0 ? -index - 1 : 2 * count - index - 1
            }
            return index
        }
    }
}

extension SIMD8 where Scalar == Float {
    /// Eight values from `pointer` at `index` (which has eight after it).
    @inline(__always)
    static func load(_ pointer: UnsafePointer<Float>, _ index: Int) -> SIMD8<Float> {
        UnsafeRawPointer(pointer + index).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// Eight values into `pointer` at `index` (which has room for eight).
    @inline(__always)
    static func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>, _ index: Int) {
        UnsafeMutableRawPointer(pointer + index).storeBytes(of: value, as: SIMD8<Float>.self)
    }
}
