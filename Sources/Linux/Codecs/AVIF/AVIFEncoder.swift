internal import CAVIF
public import Foundation

/// Encodes AVIF stills and image sequences with libavif (aom underneath in
/// Debian's build): 4:2:0 for opaque and translucent images alike, no alpha
/// plane for an opaque image, a lossless alpha plane otherwise (as WebP's
/// alpha quality 100).
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
    /// The default speed of image sequences: 8, where libavif runs aom in
    /// its real-time mode. On the demo's 32-frame 480×270 photographic GIF
    /// at quantizer 22 it took 0.11 s of CPU and 19 MB against speed 6's
    /// 1.85 s and 98 MB, for 33.6 kB against 17.6 kB at SSIMULACRA 2 73–75
    /// against 71–73 (docs/benchmarks.md: "AVIF image sequences").
    public static let defaultSequenceSpeed = 8

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
        try checkOptions()
        try ImageFormat.avif.checkEncodable(width: image.width, height: image.height)
        let avif = try yuvImage(of: image, keepsAlpha: !image.isOpaque)
        let encoder = try makeEncoder()
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try AVIFStatus.check(
            avifEncoderWrite(encoder.raw, avif.raw, &output), operation: "encoding AVIF",
            diagnostic: encoder.diagnostic)
        return try Self.data(of: output)
    }

    /// Throws `.invalidArgument` for options out of range.
    func checkOptions() throws(ImageCodecError) {
        guard (1...100).contains(options.quality) else {
            throw ImageCodecError.invalidArgument(.avif, "AVIF quality must be 1–100, got \(options.quality)")
        }
        guard (0...10).contains(options.speed) else {
            throw ImageCodecError.invalidArgument(.avif, "AVIF speed must be 0–10, got \(options.speed)")
        }
        guard options.maxThreads >= 1 else {
            throw ImageCodecError.invalidArgument(.avif, "AVIF maxThreads must be at least 1")
        }
    }

    /// `image` converted to a libavif image in 4:2:0, with an alpha plane
    /// only when `keepsAlpha`.
    func yuvImage(of image: Image, keepsAlpha: Bool) throws(ImageCodecError) -> LibAVIFHandle<avifImage> {
        let avif = try LibAVIFHandle.image(
            width: image.width, height: image.height, yuvFormat: AVIF_PIXEL_FORMAT_YUV420)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif.raw)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.rowBytes = UInt32(image.bytesPerRow)
        // An opaque image gets no alpha plane at all.
        rgb.ignoreAlpha = keepsAlpha ? AVIF_FALSE : AVIF_TRUE
        let converted = image.pixels.withUnsafeBufferPointer { buffer in
            rgb.pixels = UnsafeMutablePointer(mutating: buffer.baseAddress)
            defer { rgb.pixels = nil }
            return avifImageRGBToYUV(avif.raw, &rgb)
        }
        try AVIFStatus.check(converted, operation: "converting RGBA to AVIF's YUV", diagnostic: "")
        return avif
    }

    /// An encoder with the options' threads, speed (or `speed`) and
    /// quantizer, and a lossless alpha quantizer.
    func makeEncoder(speed: Int? = nil) throws(ImageCodecError) -> LibAVIFHandle<avifEncoder> {
        let encoder = try LibAVIFHandle.encoder()
        encoder.raw.pointee.maxThreads = Int32(options.maxThreads)
        encoder.raw.pointee.speed = Int32(speed ?? options.speed)
        encoder.raw.pointee.minQuantizer = Int32(options.quantizer)
        encoder.raw.pointee.maxQuantizer = Int32(options.quantizer)
        encoder.raw.pointee.minQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        encoder.raw.pointee.maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        return encoder
    }

    /// The bytes libavif wrote.
    static func data(of output: avifRWData) throws(ImageCodecError) -> Data {
        guard let bytes = output.data, output.size > 0 else {
            throw ImageCodecError(.encodingFailed, format: .avif, "AVIF encoding produced no output")
        }
        return Data(bytes: bytes, count: output.size)
    }
}
