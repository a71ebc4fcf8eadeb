internal import CTurboJPEG
public import Foundation

extension JPEGDecoder {
    /// Decodes a photo straight to WebP's 4:2:0 planes at `width`×`height`:
    /// TurboJPEG's DCT scaling to the smallest scale that covers the size,
    /// its Y′CbCr planes as they are coded (no upsampling, no conversion to
    /// RGB), each plane resized on its own, and JPEG's full range mapped to
    /// WebP's video range on the way. Half the bytes of the RGBA path, and
    /// libwebp then has no RGB to convert.
    ///
    /// Chroma coded at 4:4:4, 4:2:2, 4:4:0 or 4:2:0 is resampled to 4:2:0
    /// at the luma plane's scale (both are sited between samples, as JFIF
    /// and libwebp's RGB import place them); a greyscale JPEG gets neutral
    /// chroma.
    ///
    /// - Returns: `nil` when this path does not apply and ``decode(_:options:)``
    ///   should be used: RGB, CMYK or YCCK scans, 4:1:1 chroma, or an EXIF
    ///   orientation other than ``ImageOrientation/up`` (the planes are not
    ///   turned).
    /// - Throws: ``ImageCodecError`` as ``decode(_:options:)`` does, and
    ///   `.invalidArgument` when a dimension is not positive.
    public func decodeYUV420(_ data: Data, width: Int, height: Int) throws(ImageCodecError) -> YUV420Image? {
        guard width > 0, height > 0 else {
            throw ImageCodecError.invalidArgument(.jpeg, "YUV target must be positive, got \(width)x\(height)")
        }
        try limits.checkInput(data, format: .jpeg)
        let handle = try TurboJPEGHandle(.decompress)
        return try data.withRawBytes { raw throws(ImageCodecError) -> YUV420Image? in
            let header = try readHeader(raw, handle)
            guard header.orientation == .up, let chroma = ChromaSampling(header) else { return nil }
            try limits.checkFrame(width: header.width, height: header.height, format: .jpeg)
            let factor = Self.scalingFactor(
                width: header.width, height: header.height, covering: (width, height))
            let scaledWidth = Int(webpbridge_tj_scaled(Int32(header.width), factor))
            let scaledHeight = Int(webpbridge_tj_scaled(Int32(header.height), factor))
            let planes = try Self.decodePlanes(
                raw, handle, width: scaledWidth, height: scaledHeight, subsampling: header.subsampling,
                count: chroma.planeCount)
            return planes.withUnsafeBufferPointers { buffers in
                Self.resample(
                    buffers, chroma: chroma,
                    from: Self.scaledExtent(width: header.width, height: header.height, factor), to: (width, height))
            }
        }
    }

    /// The coded planes at the scaled size, each `tjPlaneWidth`×`tjPlaneHeight`.
    private static func decodePlanes(
        _ raw: UnsafeRawBufferPointer, _ handle: TurboJPEGHandle, width: Int, height: Int, subsampling: Int32,
        count: Int
    ) throws(ImageCodecError) -> CodedPlanes {
        var planes = CodedPlanes()
        for component in 0..<count {
            let planeWidth = Int(tjPlaneWidth(Int32(component), Int32(width), subsampling))
            let planeHeight = Int(tjPlaneHeight(Int32(component), Int32(height), subsampling))
            guard planeWidth > 0, planeHeight > 0 else {
                throw ImageCodecError.corrupt(.jpeg, "no size for plane \(component): \(handle.lastMessage)")
            }
            planes.sizes.append((planeWidth, planeHeight))
        }
        planes.samples = [UInt8](repeating: 0, count: planes.sizes.reduce(0) { $0 + $1.width * $1.height })
        let sizes = planes.sizes
        let result = planes.samples.withUnsafeMutableBufferPointer { samples -> Int32 in
            guard let base = samples.baseAddress else { return -1 }
            var pointers: [UnsafeMutablePointer<UInt8>?] = []
            var strides: [Int32] = []
            var offset = 0
            for size in sizes {
                pointers.append(base + offset)
                strides.append(Int32(size.width))
                offset += size.width * size.height
            }
            return pointers.withUnsafeMutableBufferPointer { pointers in
                strides.withUnsafeMutableBufferPointer { strides in
                    tjDecompressToYUVPlanes(
                        handle.raw, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(raw.count),
                        pointers.baseAddress, Int32(width), strides.baseAddress, Int32(height), 0)
                }
            }
        }
        try handle.check(result, operation: "decoding JPEG planes", byteCount: raw.count)
        return planes
    }

    /// Full-range planes resized and mapped to WebP's video range.
    private static func resample(
        _ planes: [PlaneResizer.Plane], chroma: ChromaSampling, from source: (width: Double, height: Double),
        to target: (width: Int, height: Int)
    ) -> YUV420Image {
        let resizer = PlaneResizer()
        // BT.601 video range: Y 16–235, Cb and Cr 16–240 around 128 (libwebp's yuv.h).
        let luma = PlaneResizer.Mapping(gain: 219 / 255, offset: 16)
        // The coded luma plane is padded to whole chroma samples (an odd scaled size gets one more
        // column or row), and TurboJPEG's scaled size is rounded up, so the scale comes from the
        // picture's exact size at the factor (``scaledExtent``): from the plane's or the rounded
        // size, the picture was sampled up to a pixel off at the far edges.
        let y = resizer.resize(
            planes[0], width: target.width, height: target.height,
            scaleX: source.width / Double(target.width), scaleY: source.height / Double(target.height),
            mapping: luma)
        let chromaWidth = (target.width + 1) / 2
        let chromaHeight = (target.height + 1) / 2
        guard planes.count == 3 else {
            let neutral = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
            return YUV420Image(width: target.width, height: target.height, y: y, u: neutral, v: neutral)
        }
        // A target chroma sample covers 2×2 target luma samples; a coded one covers
        // `horizontal`×`vertical` source luma samples.
        let scaleX = 2 * source.width / Double(target.width) / Double(chroma.horizontal)
        let scaleY = 2 * source.height / Double(target.height) / Double(chroma.vertical)
        let difference = PlaneResizer.Mapping(gain: 224 / 255, offset: 128 - 128 * 224 / 255)
        // Chroma by area average, not Lanczos: as soft as libwebp's 2×2 averaging on the RGBA
        // path, which Lanczos chroma outgrew by 1.5% of the bytes at the same luma SSIM
        // (`origin-benchmark paths 750` on the demo photos: area average is 1.1% smaller than RGBA).
        let chromaResizer = PlaneResizer(filter: .areaAverage)
        let u = chromaResizer.resize(
            planes[1], width: chromaWidth, height: chromaHeight, scaleX: scaleX, scaleY: scaleY, mapping: difference)
        let v = chromaResizer.resize(
            planes[2], width: chromaWidth, height: chromaHeight, scaleX: scaleX, scaleY: scaleY, mapping: difference)
        return YUV420Image(width: target.width, height: target.height, y: y, u: u, v: v)
    }
}

/// How a JPEG's chroma is subsampled, for the subsamplings the YUV path takes.
private struct ChromaSampling {
    /// Luma samples per chroma sample, across and down.
    var horizontal: Int
    var vertical: Int
    /// 1 for greyscale, 3 otherwise.
    var planeCount: Int

    init?(_ header: JPEGDecoder.Header) {
        guard header.colorSpace == .ycbcr || header.colorSpace == .gray else { return nil }
        switch TJSAMP(rawValue: UInt32(bitPattern: header.subsampling)) {
        case TJSAMP_444: (horizontal, vertical, planeCount) = (1, 1, 3)
        case TJSAMP_422: (horizontal, vertical, planeCount) = (2, 1, 3)
        case TJSAMP_420: (horizontal, vertical, planeCount) = (2, 2, 3)
        case TJSAMP_440: (horizontal, vertical, planeCount) = (1, 2, 3)
        case TJSAMP_GRAY: (horizontal, vertical, planeCount) = (1, 1, 1)
        default: return nil
        }
    }
}

/// The planes TurboJPEG decodes into, one after the other in one buffer.
private struct CodedPlanes {
    var samples: [UInt8] = []
    var sizes: [(width: Int, height: Int)] = []

    func withUnsafeBufferPointers<Result>(_ body: ([PlaneResizer.Plane]) -> Result) -> Result {
        samples.withUnsafeBufferPointer { samples in
            var planes: [PlaneResizer.Plane] = []
            var offset = 0
            for size in sizes {
                let plane = UnsafeBufferPointer(rebasing: samples[offset..<(offset + size.width * size.height)])
                planes.append(PlaneResizer.Plane(samples: plane, width: size.width, height: size.height))
                offset += size.width * size.height
            }
            return body(planes)
        }
    }
}
