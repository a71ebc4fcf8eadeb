internal import CWebP
public import Foundation

extension WebPDecoder {
    /// Decodes every frame of an animated WebP, composited onto the canvas
    /// by libwebp's animation decoder. A still WebP decodes as one frame.
    ///
    /// The canvas size and frame count are read with the demuxer and checked
    /// against ``limits`` before the decoder allocates its canvas.
    ///
    /// - Throws: ``ImageCodecError``.
    public func decodeAnimation(_ data: Data) throws(ImageCodecError) -> AnimatedImage {
        try limits.checkInput(byteCount: data.count, format: .webp)
        return try data.withRawBytes { raw throws(ImageCodecError) in try decodeAnimation(raw, maxFrames: nil) }
    }

    /// Frame and loop counts of an animated WebP, read by the demuxer without
    /// decoding pixels.
    public func animationInfo(_ data: Data) throws(ImageCodecError) -> (frameCount: Int, loopCount: Int) {
        try data.withRawBytes { raw throws(ImageCodecError) in
            var webpData = WebPData(bytes: try WebPStatus.bytes(of: raw), size: raw.count)
            guard let demux = WebPDemux(&webpData) else {
                if let declaredSize = WebPStatus.declaredFileSize(raw), raw.count < declaredSize {
                    throw ImageCodecError.truncated(.webp, have: raw.count, need: declaredSize)
                }
                throw ImageCodecError.corrupt(.webp, "invalid animation container")
            }
            defer { WebPDemuxDelete(demux) }
            let plays = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
            return (Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)), AnimationTiming.playCount(.webp, declared: plays))
        }
    }

    /// Decodes up to `maxFrames` frames (all when `nil`).
    func decodeAnimation(_ raw: UnsafeRawBufferPointer, maxFrames: Int?) throws(ImageCodecError) -> AnimatedImage {
        var frames: [AnimatedImage.Frame] = []
        let header = try forEachAnimationFrame(raw) { frame in
            frames.append(frame)
            return maxFrames.map { frames.count < $0 } ?? true
        }
        return AnimatedImage(
            canvasWidth: header.canvasWidth, canvasHeight: header.canvasHeight, frames: frames,
            loopCount: header.loopCount)
    }

    /// Decodes the frames one at a time, handing each composited canvas to
    /// `body` before the next is decoded, until `body` returns `false`; only
    /// libwebp's canvas and the frame handed over are held at once.
    ///
    /// - Throws: ``ImageCodecError``, and whatever `body` throws.
    func forEachAnimationFrame(
        _ raw: UnsafeRawBufferPointer, _ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Bool
    ) throws(ImageCodecError) -> (canvasWidth: Int, canvasHeight: Int, loopCount: Int) {
        var webpData = WebPData(bytes: try WebPStatus.bytes(of: raw), size: raw.count)
        let declaredSize = WebPStatus.declaredFileSize(raw)

        // Demux first: it parses the container without touching pixels.
        guard let demux = WebPDemux(&webpData) else {
            if let declaredSize, raw.count < declaredSize {
                throw ImageCodecError.truncated(.webp, have: raw.count, need: declaredSize)
            }
            throw ImageCodecError.corrupt(.webp, "invalid animation container")
        }
        let canvasWidth = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let canvasHeight = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let frameCount = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        WebPDemuxDelete(demux)
        try limits.checkAnimation(width: canvasWidth, height: canvasHeight, frames: frameCount, format: .webp)

        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw ImageCodecError(.unsupported, format: .webp, "libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            if let declaredSize, raw.count < declaredSize {
                throw ImageCodecError.truncated(.webp, have: raw.count, need: declaredSize)
            }
            throw ImageCodecError.corrupt(.webp, "cannot create the animation decoder")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            throw ImageCodecError.corrupt(.webp, "cannot read animation info")
        }
        let hasAlpha = (webpFeatureFlags(raw) & alphaFlag) != 0
        let byteCount = canvasWidth * canvasHeight * 4
        var decodedCount = 0
        var previousTimestamp: Int32 = 0
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                if let declaredSize, raw.count < declaredSize {
                    throw ImageCodecError.truncated(.webp, have: raw.count, need: declaredSize)
                }
                throw ImageCodecError.corrupt(.webp, "frame \(decodedCount + 1) of \(frameCount) failed to decode")
            }
            let pixels = [UInt8](UnsafeBufferPointer(start: buffer, count: byteCount))
            let image = Image(width: canvasWidth, height: canvasHeight, pixels: pixels, hasAlpha: hasAlpha)
            decodedCount += 1
            let duration = AnimationTiming.displayedDuration(milliseconds: Int(timestamp) - Int(previousTimestamp))
            previousTimestamp = timestamp
            guard try body(.init(image: image, durationMilliseconds: duration)) else { break }
        }
        guard decodedCount > 0 else { throw ImageCodecError.corrupt(.webp, "animation has no frames") }
        return (canvasWidth, canvasHeight, AnimationTiming.playCount(.webp, declared: Int(info.loop_count)))
    }
}

private let alphaFlag: UInt32 = 0x10

/// The VP8X flags byte (alpha 0x10, animation 0x02), 0 without a VP8X chunk.
private func webpFeatureFlags(_ raw: UnsafeRawBufferPointer) -> UInt32 {
    guard raw.count >= 21, raw[12] == UInt8(ascii: "V"), raw[13] == UInt8(ascii: "P"), raw[14] == UInt8(ascii: "8"),
        raw[15] == UInt8(ascii: "X")
    else { return 0 }
    return UInt32(raw[20])
}
