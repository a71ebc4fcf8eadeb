import Foundation

extension SSIMULACRA2 {
    /// An image in linear light, three `Float` planes (red, green, blue),
    /// 0–1: what ``SSIMULACRA2`` converts to XYB at every scale.
    struct LinearImage: Sendable {
        let width: Int
        let height: Int
        var red: [Float]
        var green: [Float]
        var blue: [Float]

        /// sRGB's transfer function inverted, for each 8-bit value.
        static let linearFromSRGB: [Float] = (0...255).map { (value: Int) -> Float in
            let encoded = Double(value) / 255
            return Float(encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4))
        }

        init(width: Int, height: Int, red: [Float], green: [Float], blue: [Float]) {
            self.width = width
            self.height = height
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// `image` in linear light; over `background` (a linear level) when
        /// given, its alpha otherwise ignored.
        init(_ image: Image, background: Float?) {
            let count = image.width * image.height
            var red = [Float](repeating: 0, count: count)
            var green = red
            var blue = red
            let table = Self.linearFromSRGB
            image.pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<count {
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
            self.init(width: image.width, height: image.height, red: red, green: green, blue: blue)
        }

        /// Half the size, rounded up: each value the mean of its 2×2 block,
        /// or of the part of it inside the image at the right and bottom edges.
        func halved() -> LinearImage {
            let halfWidth = (width + 1) / 2
            let halfHeight = (height + 1) / 2
            func halve(_ plane: [Float]) -> [Float] {
                var output = [Float](repeating: 0, count: halfWidth * halfHeight)
                plane.withUnsafeBufferPointer { input in
                    for row in 0..<halfHeight {
                        let rows = min(2, height - 2 * row)
                        for column in 0..<halfWidth {
                            let columns = min(2, width - 2 * column)
                            var sum: Float = 0
                            for dy in 0..<rows {
                                let start = (2 * row + dy) * width + 2 * column
                                for dx in 0..<columns { sum += input[start + dx] }
                            }
                            output[row * halfWidth + column] = sum / Float(rows * columns)
                        }
                    }
                }
                return output
            }
            return LinearImage(
                width: halfWidth, height: halfHeight, red: halve(red), green: halve(green), blue: halve(blue))
        }

        /// The opsin matrix's last row (its others are exact in a few digits).
        static let m20: Float = 0.243_422_689_245_478_19
        static let m21: Float = 0.204_767_444_244_968_21
        static let m22: Float = Float(1 - 0.243_422_689_245_478_19 - 0.204_767_444_244_968_21)

        /// The positive XYB planes (X, Y, B).
        func xyb() -> [[Float]] {
            let count = width * height
            var x = [Float](repeating: 0, count: count)
            var y = x
            var b = x
            red.withUnsafeBufferPointer { red in
                green.withUnsafeBufferPointer { green in
                    blue.withUnsafeBufferPointer { blue in
                        x.withUnsafeMutableBufferPointer { x in
                            y.withUnsafeMutableBufferPointer { y in
                                b.withUnsafeMutableBufferPointer { b in
                                    guard let red = red.baseAddress, let green = green.baseAddress,
                                        let blue = blue.baseAddress, let x = x.baseAddress, let y = y.baseAddress,
                                        let b = b.baseAddress
                                    else { return }
                                    var index = 0
                                    // Eight at a time; the rest one by one, by the same arithmetic.
                                    while index + 8 <= count {
                                        let values = Self.xyb(
                                            Lanes.load(red, index), Lanes.load(green, index), Lanes.load(blue, index))
                                        Lanes.store(values.x, x, index)
                                        Lanes.store(values.y, y, index)
                                        Lanes.store(values.b, b, index)
                                        index += 8
                                    }
                                    while index < count {
                                        let values = Self.xyb(
                                            Lanes(repeating: red[index]), Lanes(repeating: green[index]),
                                            Lanes(repeating: blue[index]))
                                        x[index] = values.x[0]
                                        y[index] = values.y[0]
                                        b[index] = values.b[0]
                                        index += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return [x, y, b]
        }

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

        /// `plane` (`width`×`height`, both at least 8) blurred, into a new array.
        static func apply(_ plane: [Float], width: Int, height: Int) -> [Float] {
            precondition(!plane.isEmpty && plane.count == width * height, "plane size")
            let down = UnsafeMutablePointer<Float>.allocate(capacity: plane.count)
            defer { down.deallocate() }
            // Every output is written by the blur before anyone reads it.
            return [Float](unsafeUninitializedCapacity: plane.count) { output, initialized in
                plane.withUnsafeBufferPointer { input in
                    guard let input = input.baseAddress, let output = output.baseAddress else { return }
                    apply(input, width: width, height: height, into: output, through: down)
                }
                initialized = plane.count
            }
        }

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
