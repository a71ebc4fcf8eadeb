internal import CWebP
public import Foundation

/// Decodes WebP with libwebp, using the library's default options (fancy
/// upsampling, no dithering) so the output matches the reference `dwebp`.
///
/// Limits are checked from the headers before any pixel buffer is allocated.
/// `WebPDecoder` is a value; it is safe to use from any thread.
public struct WebPDecoder: Sendable {
    /// The bounds on input size, pixels and frames.
    public var limits: DecodingLimits

    /// Creates a decoder with `limits`.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes a still WebP (or the first frame of an animation) to RGBA.
    ///
    /// - Throws: ``ImageCodecError`` for truncated, corrupt or oversized input.
    public func decode(_ data: Data) throws(ImageCodecError) -> Image {
        try decode(data, scaledTo: nil)
    }

    /// Decodes a still WebP scaled by libwebp's own scaler to fit inside
    /// `maxWidth`×`maxHeight`, keeping the aspect ratio and never enlarging.
    /// Either bound may be `nil`.
    public func decode(_ data: Data, fittingWidth maxWidth: Int?, height maxHeight: Int?) throws(ImageCodecError)
        -> Image
    {
        let features = try WebPFeatures(data)
        let size = ImageResizer.fittingSize(
            width: features.width, height: features.height, maxWidth: maxWidth, maxHeight: maxHeight)
        let scaled = size.width == features.width && size.height == features.height ? nil : size
        return try decode(data, scaledTo: scaled)
    }

    /// Decodes any WebP: an animation to ``DecodedImage/animated(_:)``, a still
    /// image to ``DecodedImage/still(_:)``.
    public func decodeAny(_ data: Data) throws(ImageCodecError) -> DecodedImage {
        let features = try WebPFeatures(data)
        if features.isAnimated {
            return .animated(try decodeAnimation(data))
        }
        return .still(try decode(data))
    }

    private func decode(_ data: Data, scaledTo target: (width: Int, height: Int)?) throws(ImageCodecError) -> Image {
        try limits.checkInput(byteCount: data.count, format: .webp)
        return try data.withRawBytes { raw throws(ImageCodecError) in
            let features = try WebPFeatures(raw)
            if features.isAnimated {
                // A still decode of an animation is its first composited frame.
                let animation = try decodeAnimation(raw, maxFrames: 1)
                let first = animation.frames[0].image
                guard let target else { return first }
                return try ImageResizer().resize(first, width: target.width, height: target.height)
            }
            try limits.checkFrame(width: features.width, height: features.height, format: .webp)
            let width = target?.width ?? features.width
            let height = target?.height ?? features.height
            try limits.checkFrame(width: width, height: height, format: .webp)

            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                throw ImageCodecError(.unsupported, format: .webp, "libwebp version mismatch")
            }
            if let target {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(target.width)
                config.options.scaled_height = Int32(target.height)
            }
            // libwebp writes every byte of the output, so the buffer is not zeroed first.
            var status = VP8_STATUS_OK
            let input = try WebPStatus.bytes(of: raw)
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = output.baseAddress
                config.output.u.RGBA.stride = Int32(width * 4)
                config.output.u.RGBA.size = output.count
                defer { WebPFreeDecBuffer(&config.output) }
                status = WebPDecode(input, raw.count, &config)
                // On failure the contents are never read: the status throws below.
                initialized = output.count
            }
            try WebPStatus.check(
                status, operation: "decoding WebP", byteCount: raw.count,
                declaredSize: WebPStatus.declaredFileSize(raw))
            return Image(width: width, height: height, pixels: pixels, hasAlpha: features.hasAlpha)
        }
    }
}
