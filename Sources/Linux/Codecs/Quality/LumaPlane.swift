/// An image's luma, one byte a pixel: what ``FastSSIM`` and
/// ``GradientSimilarity`` compare (`webp-bridge compare`; the quality search
/// scores by ``SSIMULACRA2``).
///
/// From RGBA, `Y = (77 R + 150 G + 29 B + 128) >> 8` (BT.601's weights in
/// 8 bits, as JFIF's full-range Y′ is), premultiplied by alpha so that the
/// colour under a transparent pixel, which encoders may change and nobody
/// sees, never counts. From a JPEG's planes, the Y plane mapped back from
/// the limited range WebP codes (16–235, ``JPEGDecoder/decodeYUV420(_:width:height:)``)
/// to full range: the same Y′ as from the decoded RGB.
public struct LumaPlane: Sendable, Equatable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height` samples, rows top to bottom.
    public var samples: [UInt8]

    /// Creates a plane from its samples.
    ///
    /// - Precondition: `width` and `height` are positive and `samples`
    ///   holds `width * height` bytes.
    public init(width: Int, height: Int, samples: [UInt8]) {
        precondition(width > 0 && height > 0 && samples.count == width * height, "plane size")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// The luma of `image`, premultiplied by its alpha.
    public init(_ image: Image) {
        let count = image.pixelCount
        let samples = [UInt8](unsafeUninitializedCapacity: count) { plane, initialized in
            image.pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<count {
                    let red = UInt32(pixels[index * 4])
                    let green = UInt32(pixels[index * 4 + 1])
                    let blue = UInt32(pixels[index * 4 + 2])
                    let alpha = UInt32(pixels[index * 4 + 3])
                    let luma = (77 * red + 150 * green + 29 * blue + 128) >> 8
                    plane[index] = UInt8(truncatingIfNeeded: (luma * alpha + 127) / 255)
                }
            }
            initialized = count
        }
        self.init(width: image.width, height: image.height, samples: samples)
    }

    /// The Y plane of `image` (limited range, 16–235) in full range.
    public init(_ image: YUV420Image) {
        let fullRange = (0...255).map { (limited: Int) -> UInt8 in
            UInt8(min(255, max(0, ((limited - 16) * 255 + 109) / 219)))
        }
        self.init(width: image.width, height: image.height, samples: image.y.map { fullRange[Int($0)] })
    }

    /// Half the size (rounded down, at least 1), each sample the rounded
    /// mean of a 2×2 block: the next scale of ``FastSSIM``.
    func halved() -> LumaPlane {
        let halfWidth = max(1, width / 2)
        let halfHeight = max(1, height / 2)
        guard width >= 2, height >= 2 else { return self }
        let width = width
        let result = [UInt8](unsafeUninitializedCapacity: halfWidth * halfHeight) { target, initialized in
            samples.withUnsafeBufferPointer { source in
                guard let source = source.baseAddress, let target = target.baseAddress else { return }
                for row in 0..<halfHeight {
                    let top = source + 2 * row * width
                    let bottom = top + width
                    let out = target + row * halfWidth
                    for column in 0..<halfWidth {
                        let sum =
                            UInt16(top[2 * column]) + UInt16(top[2 * column + 1]) + UInt16(bottom[2 * column])
                            + UInt16(bottom[2 * column + 1])
                        out[column] = UInt8(truncatingIfNeeded: (sum + 2) >> 2)
                    }
                }
            }
            initialized = halfWidth * halfHeight
        }
        return LumaPlane(width: halfWidth, height: halfHeight, samples: result)
    }
}
