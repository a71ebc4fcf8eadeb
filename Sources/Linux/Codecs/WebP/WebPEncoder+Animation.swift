internal import CWebP
public import Foundation

extension WebPEncoder {
    /// Encodes an animation with libwebp's animation encoder, which stores
    /// only the changed rectangle of each frame.
    ///
    /// - Throws: ``ImageCodecError``.
    public func encode(_ animation: AnimatedImage) throws(ImageCodecError) -> Data {
        try encodeFrames(animation)
    }

    /// Encodes frames as `animation` yields them: each is handed to libwebp's
    /// animation encoder, which keeps only what it needs to compare the next
    /// one, and dropped, so an ``AnimationReader`` converts in the memory of
    /// a few frames. A canvas larger than WebP allows is refused before any
    /// frame is visited.
    ///
    /// - Throws: ``ImageCodecError``, and what visiting the frames throws.
    public func encode(_ animation: some AnimationFrames) throws(ImageCodecError) -> Data {
        try encodeFrames(animation)
    }

    private func encodeFrames(_ animation: some AnimationFrames) throws(ImageCodecError) -> Data {
        var config = try makeConfig()
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw ImageCodecError(.unsupported, format: .webp, "libwebp version mismatch")
        }
        encoderOptions.anim_params.loop_count = Int32(clamping: animation.loopCount)
        encoderOptions.allow_mixed = options.allowMixed ? 1 : 0
        // `kmax` 1 is mux.h's "all frames will be key-frames"; the default (`INT_MAX`, read from
        // `WebPAnimEncoderOptionsInit` in libwebp 1.2.4) puts one key frame first and none after.
        if options.keyFramesOnly { encoderOptions.kmax = 1 }
        try ImageFormat.webp.checkEncodable(width: animation.canvasWidth, height: animation.canvasHeight)
        guard
            let encoder = WebPAnimEncoderNew(
                Int32(animation.canvasWidth), Int32(animation.canvasHeight), &encoderOptions)
        else {
            throw ImageCodecError(.outOfMemory, format: .webp, "cannot create the WebP animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var timestamp: Int32 = 0
        try animation.forEachFrame { frame throws(ImageCodecError) in
            // Mixed frames start from ARGB, as lossless ones do: a YUV import would already have lost detail.
            var picture = try makePicture(frame.image, lossless: options.lossless || options.allowMixed)
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw animationError(encoder)
            }
            timestamp += Int32(clamping: Self.writtenDuration(of: frame))
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else { throw animationError(encoder) }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0 else { throw animationError(encoder) }
        return Data(bytes: output.bytes, count: output.size)
    }

    /// How long the animation encoder shows `frame`, in milliseconds: its
    /// duration, at least 1. Whoever lines frames up with what was written
    /// (``AnimationFrames`` read back from it) counts time the same way.
    public static func writtenDuration(of frame: AnimatedImage.Frame) -> Int {
        max(frame.durationMilliseconds, 1)
    }

    private func animationError(_ encoder: OpaquePointer) -> ImageCodecError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return ImageCodecError(.encodingFailed, format: .webp, "WebP animation encoding failed: \(message)")
    }
}
