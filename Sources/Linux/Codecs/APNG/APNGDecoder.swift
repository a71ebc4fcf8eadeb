public import Foundation

/// Decodes every frame of an animated PNG into fully composited canvases.
///
/// Each frame's data (`IDAT` or `fdAT` chunks) is rewrapped as a standalone
/// PNG — IHDR with the frame's size, the stream's PLTE and tRNS, the data as
/// IDAT — and decoded by libspng, then composited onto the canvas with the
/// frame's `blend_op` (source or over) and disposed with its `dispose_op`
/// (none, background or previous), as the APNG specification describes.
///
/// Limits are checked from `acTL` (frame count, total pixels) and from each
/// `fcTL` (the frame must lie inside the canvas) before anything is
/// allocated. Chunk CRCs are verified; sequence numbers must increase.
/// Frames past the count `acTL` declares are ignored.
///
/// A PNG without `acTL` decodes as a one-frame animation.
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct APNGDecoder: Sendable {
    /// The limits checked before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes every frame of `data`.
    ///
    /// - Returns: the frames composited on the canvas, with durations in
    ///   milliseconds (a `delay_den` of 0 means hundredths, per the
    ///   specification) and the `acTL` play count (0 = forever).
    /// - Throws: ``ImageCodecError`` — `.limitExceeded` beyond the limits,
    ///   `.truncated` or `.corrupt` for damaged streams.
    public func decode(_ data: Data) throws(ImageCodecError) -> AnimatedImage {
        try limits.checkInput(byteCount: data.count, format: .apng)
        return try data.withByteBuffer { bytes throws(ImageCodecError) in
            try decode(bytes)
        }
    }

    /// The `acTL` chunk before the first IDAT: frame count and play count.
    static func animationControl(in bytes: UnsafeBufferPointer<UInt8>) -> (frameCount: Int, loopCount: Int)? {
        guard PNGChunkReader.containsAnimationControl(bytes) else { return nil }
        for chunk in PNGChunkReader.chunks(bytes).chunks {
            if chunk.type == PNGChunkReader.IDAT { break }
            if chunk.type == PNGChunkReader.acTL, chunk.dataRange.count == 8 {
                return (
                    Int(PNGChunkReader.readUInt32(bytes, at: chunk.dataRange.lowerBound)),
                    AnimationTiming.playCount(
                        .apng, declared: Int(PNGChunkReader.readUInt32(bytes, at: chunk.dataRange.lowerBound + 4)))
                )
            }
        }
        return nil
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> AnimatedImage {
        let stream = try APNGStream(parsing: bytes, limits: limits)
        guard let control = stream.animation else {
            let still = try PNGDecoder(limits: limits).decode(UnsafeRawBufferPointer(bytes), format: .apng)
            return AnimatedImage(
                canvasWidth: still.width, canvasHeight: still.height,
                frames: [.init(image: still, durationMilliseconds: 0)], loopCount: 0)
        }
        var frames: [AnimatedImage.Frame] = []
        frames.reserveCapacity(control.frames.count)
        var declaresAlpha = stream.hasAlpha
        try forEachFrame(of: stream, control) { frame, declared throws(ImageCodecError) in
            frames.append(frame)
            declaresAlpha = declared
            return true
        }
        for index in frames.indices {
            frames[index].image.hasAlpha = declaresAlpha || !frames[index].image.isOpaque
        }
        return AnimatedImage(
            canvasWidth: stream.width, canvasHeight: stream.height, frames: frames, loopCount: control.loopCount)
    }

    /// Decodes the frames of an animated stream one at a time, handing each
    /// composited canvas to `body` (with whether any frame so far declares
    /// alpha) before the next is decoded, until `body` returns `false`. Only
    /// the canvas, one frame and the frame handed over are held at once.
    func forEachFrame(
        of stream: APNGStream, _ control: APNGStream.Animation,
        _ body: (AnimatedImage.Frame, _ declaresAlpha: Bool) throws(ImageCodecError) -> Bool
    ) throws(ImageCodecError) {
        let frameDecoder = PNGDecoder(limits: limits)
        var canvas = CompositingCanvas(width: stream.width, height: stream.height)
        var declaresAlpha = stream.hasAlpha

        for (index, frame) in control.frames.enumerated() {
            let png = stream.standalonePNG(for: frame)
            let image = try png.withUnsafeBufferPointer { buffer throws(ImageCodecError) in
                try frameDecoder.decode(UnsafeRawBufferPointer(buffer), format: .apng)
            }
            guard image.width == frame.rect.width, image.height == frame.rect.height else {
                throw ImageCodecError.corrupt(
                    .apng,
                    "frame \(index) decodes to \(image.width)x\(image.height),"
                        + " fcTL says \(frame.rect.width)x\(frame.rect.height)")
            }
            declaresAlpha = declaresAlpha || image.hasAlpha
            var dispose = frame.disposeOp
            // A first frame cannot restore "previous": the specification treats it as background.
            if index == 0 && dispose == .previous { dispose = .background }
            let saved = dispose == .previous ? canvas.copy(frame.rect) : []
            image.pixels.withUnsafeBufferPointer { source in
                switch frame.blendOp {
                case .source: canvas.replace(frame.rect, with: source)
                case .over: canvas.blendOver(frame.rect, with: source)
                }
            }
            var shown = canvas.image(hasAlpha: true)
            shown.hasAlpha = declaresAlpha || !shown.isOpaque
            guard try body(.init(image: shown, durationMilliseconds: frame.durationMilliseconds), declaresAlpha) else {
                return
            }
            switch dispose {
            case .none: break
            case .background: canvas.clear(frame.rect)
            case .previous: saved.withUnsafeBufferPointer { canvas.replace(frame.rect, with: $0) }
            }
        }
    }
}
