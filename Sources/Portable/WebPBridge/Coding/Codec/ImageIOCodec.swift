// Apple platforms only (ImageIO): compiled where `canImport(ImageIO)` holds, built and tested by
// .github/workflows/apple.yml, never on the Linux machine this project is developed on.
// A thin adapter: it translates ImageCodec calls into ImageIO calls and decides nothing.
#if canImport(ImageIO)
    public import Foundation
    import CoreGraphics
    import ImageIO

    /// The ``ImageCodec`` of Apple platforms: ImageIO decodes WebP (iOS 14),
    /// AVIF (iOS 16), HEIC, JPEG, PNG/APNG and GIF, downsampling through
    /// `CGImageSourceCreateThumbnailAtIndex`; `CGImageDestination` encodes
    /// JPEG and PNG. It writes no AVIF (`.unsupported`: ImageIO promises AVIF
    /// decoding from iOS 16 / macOS 13, not encoding) and no APNG, and has no
    /// progressive decoder. The decisions are the portable core's, as on
    /// Linux: the input checks (``DecodingLimits/checkInput(_:format:)``, the
    /// JPEG scan limit included), the fitted size of an oriented photo
    /// (``ImageGeometry``) and the animation timing (``AnimationTiming``).
    public struct ImageIOCodec: ImageCodec {
        public init() {}

        public var name: String { "ImageIO" }

        public var decodableFormats: Set<ImageFormat> { Set(ImageFormat.allCases) }

        public func decode(
            _ data: Data, format: ImageFormat, limits: DecodingLimits
        ) throws(ImageCodecError) -> DecodedImage {
            try limits.checkInput(data, format: format)
            let source = try makeSource(data, format: format)
            let count = CGImageSourceGetCount(source)
            let header = try header(source, format: format, limits: limits)
            let (width, height) = (header.width, header.height)
            guard count > 1 else { return .still(try image(at: 0, of: source, maxSide: nil, format: format)) }
            try limits.checkAnimation(width: width, height: height, frames: count, format: format)
            let keys = AnimationKeys(format)
            var frames: [AnimatedImage.Frame] = []
            for index in 0..<count {
                let frame = try image(at: index, of: source, maxSide: nil, format: format)
                guard frame.width == width, frame.height == height else {
                    throw ImageCodecError.corrupt(format, "frame \(index) is not \(width)x\(height)")
                }
                let duration = AnimationTiming.displayedDuration(seconds: keys?.delaySeconds(at: index, of: source))
                frames.append(.init(image: frame, durationMilliseconds: duration))
            }
            let loopCount = AnimationTiming.playCount(format, declared: keys?.declaredLoopCount(of: source))
            return .animated(
                AnimatedImage(canvasWidth: width, canvasHeight: height, frames: frames, loopCount: loopCount))
        }

        public func decodeStill(
            _ data: Data, format: ImageFormat, maxWidth: Int?, maxHeight: Int?, limits: DecodingLimits
        ) throws(ImageCodecError) -> Image {
            try limits.checkInput(data, format: format)
            let source = try makeSource(data, format: format)
            let header = try header(source, format: format, limits: limits)
            // The thumbnail is turned upright (kCGImageSourceCreateThumbnailWithTransform), so the box
            // applies to the upright image, as on Linux; ImageIO bounds its longer side.
            let maxSide = ImageGeometry.thumbnailMaxPixelSize(
                storedWidth: header.width, storedHeight: header.height, orientation: header.orientation,
                maxWidth: maxWidth, maxHeight: maxHeight)
            return try image(at: 0, of: source, maxSide: maxSide, format: format)
        }

        public func encode(_ image: Image, as encoding: StillEncoding) throws(ImageCodecError) -> Data {
            let type: CFString
            var properties: [CFString: Any] = [:]
            switch encoding {
            case .jpeg(let quality):
                type = "public.jpeg" as CFString
                properties[kCGImageDestinationLossyCompressionQuality] = Double(quality) / 100
            case .png:
                type = "public.png" as CFString
            case .avif:
                throw ImageCodecError(.unsupported, format: .avif, "ImageIO does not encode AVIF")
            }
            let output = NSMutableData()
            guard let cgImage = makeCGImage(image),
                let destination = CGImageDestinationCreateWithData(output as CFMutableData, type, 1, nil)
            else { throw ImageCodecError(.encodingFailed, format: encoding.format, "ImageIO cannot start encoding") }
            CGImageDestinationAddImage(destination, cgImage, properties as CFDictionary)
            guard CGImageDestinationFinalize(destination) else {
                throw ImageCodecError(.encodingFailed, format: encoding.format, "ImageIO failed to encode")
            }
            return output as Data
        }

        public func encodeAnimationAsAPNG(
            _ data: Data, format: ImageFormat, compressionLevel: Int, limits: DecodingLimits
        ) throws(ImageCodecError) -> Data? { nil }

        public func makeProgressiveDecoder(limits: DecodingLimits) -> (any ProgressiveImageDecoder)? { nil }

        private var sRGB: CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB() }

        private func makeSource(_ data: Data, format: ImageFormat) throws(ImageCodecError) -> CGImageSource {
            let options = [kCGImageSourceShouldCache: false] as CFDictionary
            guard let source = CGImageSourceCreateWithData(data as CFData, options), CGImageSourceGetCount(source) > 0
            else { throw ImageCodecError.corrupt(format, "ImageIO cannot read it") }
            return source
        }

        /// The first frame's stored size (checked before any pixel is decoded) and orientation, from the headers.
        private func header(
            _ source: CGImageSource, format: ImageFormat, limits: DecodingLimits
        ) throws(ImageCodecError) -> (width: Int, height: Int, orientation: ImageOrientation) {
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any]
            let width = properties?[kCGImagePropertyPixelWidth] as? Int ?? 0
            let height = properties?[kCGImagePropertyPixelHeight] as? Int ?? 0
            try limits.checkFrame(width: width, height: height, format: format)
            let orientation = ImageOrientation(exifValue: properties?[kCGImagePropertyOrientation] as? Int)
            return (width, height, orientation)
        }

        /// One frame as straight-alpha RGBA, upright per its orientation, its longer side at most `maxSide`.
        private func image(
            at index: Int, of source: CGImageSource, maxSide: Int?, format: ImageFormat
        ) throws(ImageCodecError) -> Image {
            var options: [CFString: Any] = [
                kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceShouldCacheImmediately: true,
            ]
            if let maxSide { options[kCGImageSourceThumbnailMaxPixelSize] = maxSide }
            guard let cgImage = CGImageSourceCreateThumbnailAtIndex(source, index, options as CFDictionary) else {
                throw ImageCodecError.corrupt(format, "ImageIO cannot decode frame \(index)")
            }
            return try rgba(cgImage, format: format)
        }

        /// Draws into premultiplied RGBA (what CGContext supports), then un-premultiplies.
        private func rgba(_ cgImage: CGImage, format: ImageFormat) throws(ImageCodecError) -> Image {
            let (width, height) = (cgImage.width, cgImage.height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                        bytesPerRow: width * 4, space: sRGB,
                        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
                else { return false }
                context.draw(cgImage, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
            guard drawn else { throw ImageCodecError.corrupt(format, "ImageIO cannot draw \(width)x\(height)") }
            for offset in stride(from: 0, to: pixels.count, by: 4)
            where pixels[offset + 3] != 0 && pixels[offset + 3] != 255 {
                let alpha = Int(pixels[offset + 3])
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(
                        min(255, (Int(pixels[offset + channel]) * 255 + alpha / 2) / alpha))
                }
            }
            let hasAlpha =
                cgImage.alphaInfo != .none && cgImage.alphaInfo != .noneSkipLast
                && cgImage.alphaInfo != .noneSkipFirst
            return Image(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
        }

        private func makeCGImage(_ image: Image) -> CGImage? {
            guard let provider = CGDataProvider(data: Data(image.pixels) as CFData) else { return nil }
            return CGImage(
                width: image.width, height: image.height, bitsPerComponent: 8, bitsPerPixel: 32,
                bytesPerRow: image.bytesPerRow, space: sRGB,
                bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue), provider: provider, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent)
        }
    }

    /// Where ImageIO keeps an animated format's loop count and frame delays:
    /// the format's own dictionary, read as the file declares them (the
    /// unclamped delay first); ``AnimationTiming`` decides what is shown.
    private struct AnimationKeys {
        let container: CFString
        let loopCount: CFString
        let delays: [CFString]

        /// `nil` for a format ImageIO does not animate.
        init?(_ format: ImageFormat) {
            switch format {
            case .gif:
                container = kCGImagePropertyGIFDictionary
                loopCount = kCGImagePropertyGIFLoopCount
                delays = [kCGImagePropertyGIFUnclampedDelayTime, kCGImagePropertyGIFDelayTime]
            case .apng, .png:
                container = kCGImagePropertyPNGDictionary
                loopCount = kCGImagePropertyAPNGLoopCount
                delays = [kCGImagePropertyAPNGUnclampedDelayTime, kCGImagePropertyAPNGDelayTime]
            case .webp:
                container = kCGImagePropertyWebPDictionary
                loopCount = kCGImagePropertyWebPLoopCount
                delays = [kCGImagePropertyWebPUnclampedDelayTime, kCGImagePropertyWebPDelayTime]
            case .heic:
                container = kCGImagePropertyHEICSDictionary
                loopCount = kCGImagePropertyHEICSLoopCount
                delays = [kCGImagePropertyHEICSUnclampedDelayTime, kCGImagePropertyHEICSDelayTime]
            case .jpeg, .avif:
                return nil
            }
        }

        /// The file's loop field, from the container's properties; `nil` when it has none.
        func declaredLoopCount(of source: CGImageSource) -> Int? {
            let properties = CGImageSourceCopyProperties(source, nil) as? [CFString: Any]
            let dictionary = properties?[container] as? [CFString: Any]
            return dictionary?[loopCount] as? Int
        }

        /// The frame's delay in seconds, `nil` when the file gives none.
        func delaySeconds(at index: Int, of source: CGImageSource) -> Double? {
            let properties = CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [CFString: Any]
            guard let dictionary = properties?[container] as? [CFString: Any] else { return nil }
            return delays.lazy.compactMap { dictionary[$0] as? Double }.first
        }
    }
#endif
