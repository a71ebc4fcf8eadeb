internal import CTurboJPEG
public import Foundation

/// Decodes JPEG with TurboJPEG: grey, RGB and CMYK sources to RGBA, with DCT
/// scaling when a smaller size is asked for and the EXIF orientation read
/// and applied (unless asked not to, as ``ImageDecoder`` can be).
public struct JPEGDecoder: Sendable {
    /// What the headers say.
    public struct Header: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// The colour space the scan is coded in.
        public var colorSpace: JPEGColorSpace
        /// The EXIF orientation (1–8), 1 when absent.
        public var orientation: ImageOrientation
        /// TurboJPEG's chroma subsampling code (`TJSAMP`), -1 when unknown.
        var subsampling: Int32 = -1
    }

    /// Decoding options.
    public struct Options: Sendable, Equatable {
        /// When set, TurboJPEG's DCT scaling picks the smallest scale (1/8 … 1)
        /// whose output still covers this box, and the result is then resized
        /// exactly to fit inside it. `nil` decodes at full size.
        public var fitting: (width: Int?, height: Int?)?
        /// Rotate/flip the pixels so the image is upright per its EXIF
        /// orientation (default `true`, the same name and default as
        /// ``ImageDecoder/appliesOrientation``).
        public var appliesOrientation: Bool
        /// With ``fitting``, the scale picked covers this many times the box
        /// (1, the default, to 8): 2 for a picture that must not show the
        /// scaled IDCT's softening (a quality search's reference), at the
        /// cost of decoding and resampling more pixels.
        public var coverage: Int

        public init(
            fitting: (width: Int?, height: Int?)? = nil, appliesOrientation: Bool = true, coverage: Int = 1
        ) {
            self.fitting = fitting
            self.appliesOrientation = appliesOrientation
            self.coverage = min(8, max(1, coverage))
        }

        public static func == (lhs: Options, rhs: Options) -> Bool {
            lhs.appliesOrientation == rhs.appliesOrientation && lhs.fitting?.width == rhs.fitting?.width
                && lhs.fitting?.height == rhs.fitting?.height && lhs.coverage == rhs.coverage
        }
    }

    /// The bounds on input size and pixels.
    public var limits: DecodingLimits

    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// The number of scans in `data`: 1 for a baseline JPEG, usually about
    /// 10 for a progressive one; counted by walking the segments, without
    /// decoding. A damaged stream counts the scans before the damage.
    public static func scanCount(_ data: Data) -> Int {
        data.withUnsafeBytes { JPEGScanCounter.count($0) }
    }

    /// Reads the header without decoding pixels.
    ///
    /// - Throws: ``ImageCodecError`` when the header is damaged or the data
    ///   ends before it.
    public func readHeader(_ data: Data) throws(ImageCodecError) -> Header {
        let handle = try TurboJPEGHandle(.decompress)
        return try data.withRawBytes { raw throws(ImageCodecError) in try readHeader(raw, handle) }
    }

    func readHeader(_ raw: UnsafeRawBufferPointer, _ handle: TurboJPEGHandle) throws(ImageCodecError) -> Header {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorSpace: Int32 = 0
        let result = tjDecompressHeader3(
            handle.raw, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(raw.count), &width, &height,
            &subsampling, &colorSpace)
        // A warning (e.g. extraneous bytes before a marker) still yields a usable header.
        if result != 0 && !(handle.lastFailureWasWarning && width > 0 && height > 0) {
            if raw.count < 4 {
                throw ImageCodecError.truncated(.jpeg, have: raw.count, need: nil)
            }
            throw ImageCodecError.corrupt(.jpeg, "reading the header: \(handle.lastMessage)")
        }
        // TurboJPEG answers a stream that ends before its frame header (a lone
        // SOI, a tables-only stream) with success and a 0×0 image.
        guard width > 0, height > 0 else {
            throw ImageCodecError.truncated(.jpeg, have: raw.count, need: nil)
        }
        let space: JPEGColorSpace =
            switch TJCS(rawValue: UInt32(colorSpace)) {
            case TJCS_GRAY: .gray
            case TJCS_RGB: .rgb
            case TJCS_CMYK: .cmyk
            case TJCS_YCCK: .ycck
            default: .ycbcr
            }
        return Header(
            width: Int(width), height: Int(height), colorSpace: space,
            orientation: ImageOrientation(exifIn: raw), subsampling: subsampling)
    }

    /// Decodes to RGBA (opaque).
    ///
    /// - Throws: ``ImageCodecError`` for truncated, corrupt or oversized
    ///   input, `.limitExceeded` for more scans than ``DecodingLimits/maxScans``.
    public func decode(_ data: Data, options: Options = Options()) throws(ImageCodecError) -> Image {
        try limits.checkInput(data, format: .jpeg)
        let handle = try TurboJPEGHandle(.decompress)
        return try data.withRawBytes { raw throws(ImageCodecError) in
            let header = try readHeader(raw, handle)
            try limits.checkFrame(width: header.width, height: header.height, format: .jpeg)
            var target: (width: Int, height: Int)?
            var factor = tjscalingfactor(num: 1, denom: 1)
            if let fitting = options.fitting {
                // The box applies to the upright image; the decode and the resize work on the stored one.
                let orientation = options.appliesOrientation ? header.orientation : .up
                let upright = ImageGeometry.uprightFittingSize(
                    storedWidth: header.width, storedHeight: header.height, orientation: orientation,
                    maxWidth: fitting.width, maxHeight: fitting.height)
                let size = orientation.swapsDimensions ? (width: upright.height, height: upright.width) : upright
                target = size
                factor = Self.scalingFactor(
                    width: header.width, height: header.height,
                    covering: (options.coverage * size.width, options.coverage * size.height))
            }
            let width = Int(webpbridge_tj_scaled(Int32(header.width), factor))
            let height = Int(webpbridge_tj_scaled(Int32(header.height), factor))
            let isCMYK = header.colorSpace == .cmyk || header.colorSpace == .ycck
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            let result = pixels.withUnsafeMutableBufferPointer { output in
                tjDecompress2(
                    handle.raw, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(raw.count),
                    output.baseAddress, Int32(width), Int32(width * 4), Int32(height),
                    Int32(isCMYK ? TJPF_CMYK.rawValue : TJPF_RGBA.rawValue), 0)
            }
            try handle.check(result, operation: "decoding JPEG", byteCount: raw.count)
            if isCMYK { Self.convertInvertedCMYKToRGBA(&pixels) }
            var image = Image(width: width, height: height, pixels: pixels, hasAlpha: false)
            if let target, target.width != width || target.height != height {
                image = try ImageResizer().resize(
                    image, width: target.width, height: target.height,
                    extent: Self.scaledExtent(width: header.width, height: header.height, factor))
            }
            if options.appliesOrientation {
                image = image.applying(header.orientation)
            }
            return image
        }
    }

    /// The picture's exact size at `factor`: TurboJPEG's output is that
    /// rounded up, its last column and row holding a fraction of a pixel of
    /// the picture (the rest is the codec's edge padding), so this, not the
    /// output's size, is what a resample of it scales from.
    static func scaledExtent(width: Int, height: Int, _ factor: tjscalingfactor) -> (width: Double, height: Double) {
        let scale = Double(factor.num) / Double(factor.denom)
        return (Double(width) * scale, Double(height) * scale)
    }

    /// The smallest TurboJPEG scaling factor whose output is at least `size`.
    static func scalingFactor(width: Int, height: Int, covering size: (width: Int, height: Int)) -> tjscalingfactor {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return tjscalingfactor(num: 1, denom: 1) }
        var best = tjscalingfactor(num: 1, denom: 1)
        var bestScale = 1.0
        for index in 0..<Int(count) {
            let factor = factors[index]
            let scale = Double(factor.num) / Double(factor.denom)
            guard scale <= 1, scale < bestScale else { continue }
            let scaledWidth = Int(webpbridge_tj_scaled(Int32(width), factor))
            let scaledHeight = Int(webpbridge_tj_scaled(Int32(height), factor))
            if scaledWidth >= size.width && scaledHeight >= size.height {
                best = factor
                bestScale = scale
            }
        }
        return best
    }

    /// CMYK JPEGs are almost all written by Adobe software, which stores the
    /// channels inverted; this converts those to RGB in place (alpha 255).
    static func convertInvertedCMYKToRGBA(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let k = UInt32(buffer[index + 3])
                buffer[index] = UInt8(UInt32(buffer[index]) * k / 255)
                buffer[index + 1] = UInt8(UInt32(buffer[index + 1]) * k / 255)
                buffer[index + 2] = UInt8(UInt32(buffer[index + 2]) * k / 255)
                buffer[index + 3] = 255
                index += 4
            }
        }
    }
}

extension JPEGDecoder.Header {
    /// Bytes libjpeg-turbo holds for the whole image's DCT coefficients
    /// while it decodes a JPEG of more than one scan (a progressive one, or
    /// a sequential one whose components are in scans of their own),
    /// whatever the scale it decodes to: 64 coefficients of 2 bytes for
    /// every block of every component, counted in whole MCUs of the
    /// sampling TurboJPEG reports. An unknown sampling is counted as every
    /// component at full resolution, the most there can be. A one-scan
    /// JPEG is decoded an MCU row at a time and holds none of this.
    public var coefficientBytes: Int {
        let components =
            switch colorSpace {
            case .gray: 1
            case .cmyk, .ycck: 4
            case .rgb, .ycbcr: 3
            }
        // TurboJPEG's MCU sizes by `TJSAMP` (turbojpeg.h, `tjMCUWidth`, `tjMCUHeight`): 444, 422, 420,
        // gray, 440, 411.
        let mcuWidths = [8, 16, 16, 8, 8, 32]
        let mcuHeights = [8, 8, 16, 8, 16, 8]
        let known = subsampling >= 0 && Int(subsampling) < mcuWidths.count
        let mcu =
            known ? (width: mcuWidths[Int(subsampling)], height: mcuHeights[Int(subsampling)]) : (width: 32, height: 32)
        let lumaBlocks = mcu.width / 8 * (mcu.height / 8)
        // Luma (and a CMYK image's black) fill the MCU, each other component one block of it.
        let blocksPerMCU =
            switch (known, components) {
            case (false, _): components * lumaBlocks
            case (true, 1): lumaBlocks
            case (true, 4): 2 * lumaBlocks + 2
            default: lumaBlocks + 2
            }
        let mcus = ((width + mcu.width - 1) / mcu.width) * ((height + mcu.height - 1) / mcu.height)
        return mcus * blocksPerMCU * 64 * 2
    }
}

/// The colour space a JPEG's scan is coded in, as TurboJPEG reports it.
public enum JPEGColorSpace: String, Sendable, Equatable {
    case gray, rgb, ycbcr, cmyk, ycck
}
