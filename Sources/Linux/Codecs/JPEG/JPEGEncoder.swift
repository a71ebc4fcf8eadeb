internal import CTurboJPEG
public import Foundation

/// Encodes JPEG with TurboJPEG.
public struct JPEGEncoder: Sendable {
    /// Chroma subsampling.
    public enum Subsampling: String, Sendable {
        /// 4:2:0, the default: half-resolution chroma both ways.
        case s420 = "4:2:0"
        case s422 = "4:2:2"
        /// Full-resolution chroma.
        case s444 = "4:4:4"
        /// No chroma: a greyscale JPEG of the image's luma.
        case gray
    }

    /// Encoder settings.
    public struct Options: Sendable, Equatable {
        /// Quality 1–100. Default 90: above a WebP's q80 by SSIM, so a
        /// transcode never looks worse than the WebP it came from.
        public var quality: Int
        /// Default ``Subsampling/s420``.
        public var subsampling: Subsampling
        /// Write a progressive JPEG. Default `false`.
        public var progressive: Bool

        public init(quality: Int = 90, subsampling: Subsampling = .s420, progressive: Bool = false) {
            self.quality = quality
            self.subsampling = subsampling
            self.progressive = progressive
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Encodes `image`. JPEG has no alpha: a translucent image is composited
    /// over white first (callers that care choose PNG instead).
    ///
    /// - Throws: ``ImageCodecError``.
    public func encode(_ image: Image) throws(ImageCodecError) -> Data {
        guard (1...100).contains(options.quality) else {
            throw ImageCodecError.invalidArgument(.jpeg, "JPEG quality must be 1–100, got \(options.quality)")
        }
        guard image.width <= 65_535, image.height <= 65_535 else {
            throw ImageCodecError.invalidArgument(.jpeg, "JPEG allows at most 65,535 pixels a side")
        }
        let source = image.isOpaque ? image : image.compositedOverWhite()
        let handle = try TurboJPEGHandle(.compress)
        let subsampling: TJSAMP =
            switch options.subsampling {
            case .s420: TJSAMP_420
            case .s422: TJSAMP_422
            case .s444: TJSAMP_444
            case .gray: TJSAMP_GRAY
            }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let flags = options.progressive ? TJFLAG_PROGRESSIVE : 0
        let result = source.pixels.withUnsafeBufferPointer { buffer in
            tjCompress2(
                handle.raw, buffer.baseAddress, Int32(source.width), Int32(source.bytesPerRow), Int32(source.height),
                Int32(TJPF_RGBA.rawValue), &output, &size, Int32(subsampling.rawValue), Int32(options.quality), flags)
        }
        if result != 0 {
            throw ImageCodecError(.encodingFailed, format: .jpeg, "JPEG encoding failed: \(handle.lastMessage)")
        }
        guard let output else {
            throw ImageCodecError(.encodingFailed, format: .jpeg, "JPEG encoding produced no output")
        }
        return Data(bytes: output, count: Int(size))
    }
}

extension Image {
    /// The image over an opaque white background.
    func compositedOverWhite() -> Image {
        var result = self
        result.pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let alpha = UInt32(buffer[index + 3])
                if alpha != 255 {
                    for channel in 0..<3 {
                        let value = UInt32(buffer[index + channel])
                        buffer[index + channel] = UInt8((value * alpha + 255 * (255 - alpha) + 127) / 255)
                    }
                    buffer[index + 3] = 255
                }
                index += 4
            }
        }
        result.hasAlpha = false
        return result
    }
}
