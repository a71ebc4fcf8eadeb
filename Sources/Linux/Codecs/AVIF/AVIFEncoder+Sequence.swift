internal import CAVIF
public import Foundation

extension AVIFEncoder {
    /// Encodes an animation as an AVIF image sequence: AV1 codes each frame
    /// from the ones before it, so a photographic animation (a pan over a
    /// scene) costs a fraction of an animated WebP, which codes each frame's
    /// changed rectangle on its own.
    ///
    /// Frames are visited twice, each dropped after use: first to learn
    /// whether any has a translucent pixel (a sequence has an alpha plane in
    /// every frame or in none; with one, the speed is at most
    /// ``maxSpeedWithAlpha``), then to encode. Each frame's duration is kept
    /// in milliseconds (timescale 1000, at least 1 ms).
    ///
    /// The sequence plays forever: libavif 0.11 writes no repetition count
    /// (an edit list), and browsers loop a sequence without one (Chromium's
    /// `AVIFImageDecoder::RepetitionCount`, WebKit's
    /// `AVIFImageDecoder::repetitionCount`). An animation that plays a
    /// number of times is refused rather than changed.
    ///
    /// - Throws: ``ImageCodecError``: `.invalidArgument` for options out of
    ///   range, a canvas above AVIF's limits, a frame that is not the
    ///   canvas's size, no frames, or a `loopCount` other than 0;
    ///   `.encodingFailed` with libavif's message; what visiting the frames
    ///   throws.
    public func encode(_ animation: some AnimationFrames) throws(ImageCodecError) -> Data {
        try encodeSequence(animation, requiresOpaque: false)
    }

    /// As ``encode(_:)-(AnimationFrames)``, for an animation whose headers
    /// say it has no alpha (a GIF without a transparent index) and that is
    /// to be encoded at the options' speed, real-time mode included. The
    /// frames are visited once, with no first pass: a translucent frame (a
    /// GIF whose first frame leaves part of the canvas undrawn) throws
    /// `.unsupported` where it comes, the frames before it encoded for
    /// nothing, rather than slow the encode down to ``maxSpeedWithAlpha``.
    public func encode(opaque animation: some AnimationFrames) throws(ImageCodecError) -> Data {
        try encodeSequence(animation, requiresOpaque: true)
    }

    /// The fastest speed a sequence with an alpha plane is encoded at: 6,
    /// aom's "good" mode. In its real-time mode (libavif's speeds 7 to 10)
    /// libaom 3.6.0 under libavif 0.11.1 crashed on such a sequence at
    /// speed 7 and dropped its alpha at 8 to 10 (stills are not affected).
    public static let maxSpeedWithAlpha = 6

    private func encodeSequence(_ animation: some AnimationFrames, requiresOpaque: Bool) throws(ImageCodecError) -> Data
    {
        try checkOptions()
        try ImageFormat.avif.checkEncodable(width: animation.canvasWidth, height: animation.canvasHeight)
        guard animation.loopCount == 0 else {
            throw .invalidArgument(
                .avif, "an AVIF sequence plays forever; this animation plays \(animation.loopCount) times")
        }
        var keepsAlpha = false
        if !requiresOpaque {
            try animation.forEachFrame { frame throws(ImageCodecError) in
                if !keepsAlpha, !frame.image.isOpaque { keepsAlpha = true }
            }
        }
        // aom's real-time mode (libavif's speeds 7 and up) broke sequences with an alpha plane here
        // (libaom 3.6.0, libavif 0.11.1): speed 7 crashed, 8 to 10 lost the alpha (AVIFSequenceTests).
        let encoder = try makeEncoder(speed: keepsAlpha ? min(options.speed, Self.maxSpeedWithAlpha) : options.speed)
        encoder.raw.pointee.timescale = 1000
        var frames = 0
        try animation.forEachFrame { frame throws(ImageCodecError) in
            guard frame.image.width == animation.canvasWidth, frame.image.height == animation.canvasHeight else {
                throw .invalidArgument(
                    .avif,
                    "frame \(frames) is \(frame.image.width)x\(frame.image.height), not the canvas's "
                        + "\(animation.canvasWidth)x\(animation.canvasHeight)")
            }
            if requiresOpaque, !frame.image.isOpaque {
                throw ImageCodecError(
                    .unsupported, format: .avif, "frame \(frames) of an animation said to be opaque is translucent")
            }
            let image = try yuvImage(of: frame.image, keepsAlpha: keepsAlpha)
            try AVIFStatus.check(
                avifEncoderAddImage(
                    encoder.raw, image.raw, UInt64(max(frame.durationMilliseconds, 1)),
                    avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue)),
                operation: "encoding AVIF frame \(frames)", diagnostic: encoder.diagnostic)
            frames += 1
        }
        guard frames > 0 else { throw .invalidArgument(.avif, "an AVIF sequence needs at least one frame") }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try AVIFStatus.check(
            avifEncoderFinish(encoder.raw, &output), operation: "finishing the AVIF sequence",
            diagnostic: encoder.diagnostic)
        return try Self.data(of: output)
    }
}
