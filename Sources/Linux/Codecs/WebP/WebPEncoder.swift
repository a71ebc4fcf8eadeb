internal import CWebP
public import Foundation

/// Encodes still and animated WebP with libwebp.
public struct WebPEncoder: Sendable {
    /// Encoder settings with libwebp's defaults.
    public struct Options: Sendable, Equatable {
        /// Lossy quality 0–100 (default 75, as `cwebp`); for lossless, the
        /// compression effort.
        public var quality: Float
        /// Speed/size trade-off, 0 (fast) to 6 (small). Default 4, kept by
        /// measurement (`make bench-webp-settings`, the demo photos at 750 px,
        /// q80): method 3 costs and saves the same; 2 halves the encode time
        /// but loses 0.004 luma SSIM at 4% more bytes, and matching method 4's
        /// SSIM takes q84 and 24% more bytes; 5 and 6 cost 10% and 75% more
        /// time for 1% and 3% fewer bytes.
        public var method: Int
        /// Quality of the alpha plane in lossy mode, 0–100. Default 100.
        public var alphaQuality: Int
        /// Encode losslessly (see ``exact`` for the RGB under fully
        /// transparent pixels).
        public var lossless: Bool
        /// With ``lossless``, keep the RGB under fully transparent pixels
        /// (libwebp's `exact`). Default `true`, so a lossless round trip is
        /// bit-exact; `false` lets libwebp flatten what nobody sees, which
        /// makes a lossless variant smaller and changes no visible pixel.
        public var exact: Bool = true
        /// For animations: let libwebp choose lossy or lossless for each
        /// frame, keeping the smaller (`WebPAnimEncoderOptions.allow_mixed`).
        /// Each frame is then encoded both ways, about twice the time.
        /// Default `false`; stills ignore it.
        public var allowMixed: Bool = false
        /// For animations: write every frame whole, as a key frame
        /// (`WebPAnimEncoderOptions.kmax` 1), instead of libwebp's default of
        /// a key frame first and then each frame's changed rectangle. A
        /// lossy frame's rectangle leaves out pixels within a few levels of
        /// the previous *source* frame (more the lower the quality), so a
        /// slow pan or fade drifts: each frame shows pixels several frames
        /// old (docs/benchmarks.md, "Animated WebP: drift"). Whole frames
        /// cannot drift. Default `false`; stills ignore it.
        public var keyFramesOnly: Bool = false
        /// Let libwebp run parts of one encode on a second thread
        /// (`thread_level`). Default `false`: it shortens one encode but
        /// costs CPU, and a server already encodes one image per core.
        public var usesThreads: Bool
        /// Convert RGB to YUV with libwebp's sharp (iterative) conversion
        /// (`use_sharp_yuv`): crisper colour edges, several times slower.
        /// Default `false`.
        public var usesSharpYUV: Bool
        /// The lossy coder's finer settings; libwebp's defaults unless set.
        /// Lossless encodes ignore them.
        public var tuning = Tuning()

        /// Creates options; values are validated when encoding.
        public init(
            quality: Float = 75, method: Int = 4, alphaQuality: Int = 100, lossless: Bool = false,
            usesThreads: Bool = false, usesSharpYUV: Bool = false
        ) {
            self.quality = quality
            self.method = method
            self.alphaQuality = alphaQuality
            self.lossless = lossless
            self.usesThreads = usesThreads
            self.usesSharpYUV = usesSharpYUV
        }
    }

    /// The settings used by ``encode(_:)``.
    public var options: Options

    /// Creates an encoder.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Encodes a still image. Alpha is written only when some pixel is not opaque.
    ///
    /// - Throws: ``ImageCodecError`` for invalid options or sizes above
    ///   16,383 pixels a side (WebP's format limit).
    public func encode(_ image: Image) throws(ImageCodecError) -> Data {
        var config = try makeConfig()
        // Sharp YUV is applied by WebPEncode to an ARGB picture, never at import.
        var picture = try makePicture(image, lossless: options.lossless || options.usesSharpYUV)
        defer { WebPPictureFree(&picture) }
        return try Self.write(&picture, config: &config)
    }

    /// Encodes a prepared picture into memory with `config`: the one call
    /// of `WebPEncode` for stills, from RGBA or from YUV planes.
    static func write(_ picture: inout WebPPicture, config: inout WebPConfig) throws(ImageCodecError) -> Data {
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        picture.writer = WebPMemoryWrite
        picture.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, &picture) != 0 else {
            throw ImageCodecError(
                .encodingFailed, format: .webp,
                "WebP encoding failed: \(WebPStatus.encodingMessage(picture.error_code))")
        }
        return Data(bytes: writer.pointee.mem, count: writer.pointee.size)
    }

    func makeConfig() throws(ImageCodecError) -> WebPConfig {
        guard (0...100).contains(options.quality) else {
            throw ImageCodecError.invalidArgument(.webp, "WebP quality must be 0–100, got \(options.quality)")
        }
        guard (0...6).contains(options.method) else {
            throw ImageCodecError.invalidArgument(.webp, "WebP method must be 0–6, got \(options.method)")
        }
        guard (0...100).contains(options.alphaQuality) else {
            throw ImageCodecError.invalidArgument(
                .webp, "WebP alpha quality must be 0–100, got \(options.alphaQuality)")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImageCodecError(.unsupported, format: .webp, "libwebp version mismatch")
        }
        config.quality = options.quality
        config.method = Int32(options.method)
        config.alpha_quality = Int32(options.alphaQuality)
        config.thread_level = options.usesThreads ? 1 : 0
        config.use_sharp_yuv = options.usesSharpYUV ? 1 : 0
        if !options.lossless { options.tuning.apply(to: &config) }
        if options.lossless {
            config.lossless = 1
            config.exact = options.exact ? 1 : 0
        }
        guard WebPValidateConfig(&config) != 0 else {
            throw ImageCodecError.invalidArgument(.webp, "invalid WebP encoder configuration")
        }
        return config
    }

    /// A picture holding `image`'s pixels; the caller frees it.
    func makePicture(_ image: Image, lossless: Bool) throws(ImageCodecError) -> WebPPicture {
        guard image.width <= maxDimension, image.height <= maxDimension else {
            throw ImageCodecError(
                .invalidArgument, format: .webp,
                "\(image.width)x\(image.height) is larger than WebP allows (16,383 pixels a side)")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageCodecError(.unsupported, format: .webp, "libwebp version mismatch")
        }
        picture.use_argb = lossless ? 1 : 0
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let imported = image.pixels.withUnsafeBufferPointer { buffer in
            image.isOpaque
                ? importOpaque(&picture, buffer, width: image.width, height: image.height)
                : WebPPictureImportRGBA(&picture, buffer.baseAddress, Int32(image.bytesPerRow))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw ImageCodecError(.outOfMemory, format: .webp, "cannot allocate the WebP picture")
        }
        return picture
    }

    /// Imports as RGBX so libwebp does not store an alpha plane.
    private func importOpaque(
        _ picture: inout WebPPicture, _ buffer: UnsafeBufferPointer<UInt8>, width: Int, height: Int
    ) -> Int32 {
        WebPPictureImportRGBX(&picture, buffer.baseAddress, Int32(width * 4))
    }
}

/// WebP's format limit for a side, in pixels.
let maxDimension = 16_383
