internal import CAVIF
public import Foundation

/// Encodes AVIF stills with libavif (aom underneath in Debian's build):
/// 4:2:0 for opaque and translucent images alike, no alpha plane for an
/// opaque image, a lossless alpha plane otherwise (as WebP's alpha quality 100).
public struct AVIFEncoder: Sendable {
    /// Encoder settings.
    public struct Options: Sendable, Equatable {
        /// Quality 1–100, mapped onto AV1's quantizer (0 best, 63 worst) as
        /// libavif 1.x maps its `quality` (`(100 − q) × 63 / 100`, rounded):
        /// libavif 0.11 has no `quality` field, so the encoder's
        /// `minQuantizer` and `maxQuantizer` are both set to that value.
        public var quality: Int
        /// Speed 0 (slowest, smallest) to 10 (fastest), libavif's scale.
        public var speed: Int
        /// Threads one encode may use (libavif's `maxThreads`). Default 1: a
        /// server already encodes one image per core.
        public var maxThreads: Int

        /// Creates options; values are validated when encoding.
        public init(
            quality: Int = AVIFEncoder.defaultQuality, speed: Int = AVIFEncoder.defaultSpeed, maxThreads: Int = 1
        ) {
            self.quality = quality
            self.speed = speed
            self.maxThreads = maxThreads
        }

        /// The AV1 quantizer ``quality`` maps to.
        public var quantizer: Int { ((100 - quality) * 63 + 50) / 100 }
    }

    /// The default quality (see docs/benchmarks.md: AVIF settings).
    public static let defaultQuality = 60
    /// The default speed (see docs/benchmarks.md: AVIF settings).
    public static let defaultSpeed = 6

    /// The settings used by ``encode(_:)``.
    public var options: Options

    /// Creates an encoder.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Encodes a still image.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` for options out of
    ///   range or a side above 65,536 pixels, `.encodingFailed` with
    ///   libavif's message otherwise.
    public func encode(_ image: Image) throws(ImageCodecError) -> Data {
        guard (1...100).contains(options.quality) else {
            throw ImageCodecError.invalidArgument(.avif, "AVIF quality must be 1–100, got \(options.quality)")
        }
        guard (0...10).contains(options.speed) else {
            throw ImageCodecError.invalidArgument(.avif, "AVIF speed must be 0–10, got \(options.speed)")
        }
        guard options.maxThreads >= 1 else {
            throw ImageCodecError.invalidArgument(.avif, "AVIF maxThreads must be at least 1")
        }
        try ImageFormat.avif.checkEncodable(width: image.width, height: image.height)
        let avif = try LibAVIFHandle.image(
            width: image.width, height: image.height, yuvFormat: AVIF_PIXEL_FORMAT_YUV420)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif.raw)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.rowBytes = UInt32(image.bytesPerRow)
        // An opaque image gets no alpha plane at all.
        rgb.ignoreAlpha = image.isOpaque ? AVIF_TRUE : AVIF_FALSE
        let converted = image.pixels.withUnsafeBufferPointer { buffer in
            rgb.pixels = UnsafeMutablePointer(mutating: buffer.baseAddress)
            defer { rgb.pixels = nil }
            return avifImageRGBToYUV(avif.raw, &rgb)
        }
        try AVIFStatus.check(converted, operation: "converting RGBA to AVIF's YUV", diagnostic: "")
        let encoder = try LibAVIFHandle.encoder()
        encoder.raw.pointee.maxThreads = Int32(options.maxThreads)
        encoder.raw.pointee.speed = Int32(options.speed)
        encoder.raw.pointee.minQuantizer = Int32(options.quantizer)
        encoder.raw.pointee.maxQuantizer = Int32(options.quantizer)
        encoder.raw.pointee.minQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        encoder.raw.pointee.maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try AVIFStatus.check(
            avifEncoderWrite(encoder.raw, avif.raw, &output), operation: "encoding AVIF",
            diagnostic: encoder.diagnostic)
        guard let bytes = output.data, output.size > 0 else {
            throw ImageCodecError(.encodingFailed, format: .avif, "AVIF encoding produced no output")
        }
        return Data(bytes: bytes, count: output.size)
    }
}
