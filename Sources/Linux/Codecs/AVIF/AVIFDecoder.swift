internal import CAVIF
public import Foundation

/// Decodes AVIF with libavif (Debian's `libavif-dev`; dav1d or aom
/// underneath): a still, or an image sequence's first frame
/// (``decode(_:)``) or every frame (``decodeAnimation(_:)``), to 8-bit RGBA whatever
/// the coded depth (10- and 12-bit are scaled down by libavif's YUV→RGB
/// conversion), alpha kept, ICC profiles ignored as for the other formats.
///
/// ``DecodingLimits`` are checked from the container (`ispe`, the frame
/// count) after `avifDecoderParse` and before any AV1 data is decoded;
/// libavif's own `imageSizeLimit` is set from them too, so the AV1 decoder
/// refuses a frame whose coded size disagrees with the container.
/// `AVIFDecoder` is a value; it is safe to use from any thread.
public struct AVIFDecoder: Sendable {
    /// What the container says, read without decoding pixels.
    public struct Header: Sendable, Equatable {
        /// Width of the first frame in pixels.
        public var width: Int
        /// Height of the first frame in pixels.
        public var height: Int
        /// Whether the file has an alpha plane.
        public var hasAlpha: Bool
        /// Bits per channel as coded: 8, 10 or 12.
        public var depth: Int
        /// Frames: 1 for a still, more for an image sequence.
        public var frameCount: Int
    }

    /// The bounds on input size, pixels and frames.
    public var limits: DecodingLimits

    /// Creates a decoder with `limits`.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Reads the container's header without decoding pixels.
    ///
    /// - Throws: ``ImageCodecError`` for truncated or damaged containers.
    public func readHeader(_ data: Data) throws(ImageCodecError) -> Header {
        try limits.checkInput(byteCount: data.count, format: .avif)
        return try data.withRawBytes { raw throws(ImageCodecError) in
            let decoder = try parse(raw)
            return Self.header(of: decoder)
        }
    }

    /// Decodes the first frame to RGBA.
    ///
    /// - Throws: ``ImageCodecError``: `.limitExceeded` from the header before
    ///   decoding, `.truncated`/`.corrupt` for damaged data.
    public func decode(_ data: Data) throws(ImageCodecError) -> Image {
        try limits.checkInput(byteCount: data.count, format: .avif)
        return try data.withRawBytes { raw throws(ImageCodecError) in
            let decoder = try parse(raw)
            let header = Self.header(of: decoder)
            if header.frameCount > 1 {
                try limits.checkAnimation(
                    width: header.width, height: header.height, frames: header.frameCount, format: .avif)
            } else {
                try limits.checkFrame(width: header.width, height: header.height, format: .avif)
            }
            try AVIFStatus.check(
                avifDecoderNextImage(decoder.raw), operation: "decoding AVIF", diagnostic: decoder.diagnostic,
                byteCount: raw.count)
            return try rgba(of: decoder)
        }
    }

    /// Decodes every frame of an image sequence (a still is one frame of
    /// 100 ms) to RGBA, each frame shown as long as
    /// ``AnimationTiming/displayedDuration(seconds:)`` says, as every other
    /// decoder does, and `loopCount` 0: libavif 0.11 reads no repetition count,
    /// and browsers loop a sequence without one.
    ///
    /// - Throws: ``ImageCodecError``, as ``decode(_:)``; the animation's
    ///   limits (``DecodingLimits/checkAnimation(width:height:frames:format:)``)
    ///   are checked from the header before any frame is decoded.
    public func decodeAnimation(_ data: Data) throws(ImageCodecError) -> AnimatedImage {
        try limits.checkInput(byteCount: data.count, format: .avif)
        return try data.withRawBytes { raw throws(ImageCodecError) in
            let decoder = try parse(raw)
            let header = Self.header(of: decoder)
            try limits.checkAnimation(
                width: header.width, height: header.height, frames: header.frameCount, format: .avif)
            var frames: [AnimatedImage.Frame] = []
            for index in 0..<max(header.frameCount, 1) {
                try AVIFStatus.check(
                    avifDecoderNextImage(decoder.raw), operation: "decoding AVIF frame \(index)",
                    diagnostic: decoder.diagnostic, byteCount: raw.count)
                let image = try rgba(of: decoder)
                guard image.width == header.width, image.height == header.height else {
                    throw ImageCodecError.corrupt(
                        .avif, "frame \(index) is \(image.width)x\(image.height), not \(header.width)x\(header.height)")
                }
                let seconds = header.frameCount > 1 ? decoder.raw.pointee.imageTiming.duration : nil
                frames.append(
                    AnimatedImage.Frame(
                        image: image, durationMilliseconds: AnimationTiming.displayedDuration(seconds: seconds)))
            }
            return AnimatedImage(canvasWidth: header.width, canvasHeight: header.height, frames: frames, loopCount: 0)
        }
    }

    /// Decodes the first frame scaled to fit inside `maxWidth`×`maxHeight`
    /// (never enlarged); libavif has no scaler, so the full frame is decoded
    /// and then resized by ``ImageResizer``.
    ///
    /// - Throws: ``ImageCodecError``, as ``decode(_:)``.
    public func decode(_ data: Data, fittingWidth maxWidth: Int?, height maxHeight: Int?) throws(ImageCodecError)
        -> Image
    {
        let image = try decode(data)
        let size = ImageResizer.fittingSize(
            width: image.width, height: image.height, maxWidth: maxWidth, maxHeight: maxHeight)
        guard size.width != image.width || size.height != image.height else { return image }
        return try ImageResizer().resize(image, width: size.width, height: size.height)
    }

    /// A decoder that has parsed the container in `raw` (which must outlive it).
    private func parse(_ raw: UnsafeRawBufferPointer) throws(ImageCodecError) -> LibAVIFHandle<avifDecoder> {
        guard let base = raw.baseAddress, !raw.isEmpty else { throw .truncated(.avif, have: 0, need: nil) }
        let decoder = try LibAVIFHandle.decoder()
        let settings = decoder.raw
        // One thread per decode: a server already decodes one image per core.
        settings.pointee.maxThreads = 1
        settings.pointee.ignoreExif = AVIF_TRUE
        settings.pointee.ignoreXMP = AVIF_TRUE
        // Browsers show files that miss a mandatory-but-harmless box (`pixi`,
        // `clap` rules); hostile input is bounded by the limits, not by strictness.
        settings.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue
        settings.pointee.imageSizeLimit = UInt32(clamping: min(limits.maxPixelsPerFrame, 16_384 * 16_384))
        settings.pointee.imageCountLimit = UInt32(clamping: limits.maxFrames)
        try AVIFStatus.check(
            avifDecoderSetIOMemory(settings, base.assumingMemoryBound(to: UInt8.self), raw.count),
            operation: "reading AVIF", diagnostic: decoder.diagnostic)
        try AVIFStatus.check(
            avifDecoderParse(settings), operation: "reading the AVIF header", diagnostic: decoder.diagnostic,
            byteCount: raw.count)
        return decoder
    }

    private static func header(of decoder: LibAVIFHandle<avifDecoder>) -> Header {
        let image = decoder.raw.pointee.image.pointee
        return Header(
            width: Int(image.width), height: Int(image.height), hasAlpha: decoder.raw.pointee.alphaPresent != 0,
            depth: Int(image.depth), frameCount: Int(decoder.raw.pointee.imageCount))
    }

    /// The decoded frame as 8-bit straight-alpha RGBA (alpha 255 when the file has none).
    private func rgba(of decoder: LibAVIFHandle<avifDecoder>) throws(ImageCodecError) -> Image {
        guard let frame = decoder.raw.pointee.image else {
            throw ImageCodecError.corrupt(.avif, "libavif decoded no image")
        }
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        // The coded frame may disagree with the container's `ispe`: check what is allocated.
        try limits.checkFrame(width: width, height: height, format: .avif)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, frame)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.rowBytes = UInt32(width * 4)
        var result = AVIF_RESULT_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
            rgb.pixels = output.baseAddress
            result = avifImageYUVToRGB(frame, &rgb)
            // On failure the contents are never read: the result throws below.
            initialized = output.count
        }
        try AVIFStatus.check(result, operation: "converting AVIF to RGBA", diagnostic: "")
        return Image(
            width: width, height: height, pixels: pixels, hasAlpha: decoder.raw.pointee.alphaPresent != 0)
    }
}
