public import Foundation

/// An animated WebP, APNG or GIF read one frame at a time: the headers are
/// read (and checked against ``DecodingLimits``) when it is created, and
/// each frame is decoded only when ``forEachFrame(_:)`` reaches it, so the
/// decoded animation is never held whole.
///
/// Thread-safety: a value holding the encoded bytes; use it from any thread.
public struct AnimationReader: AnimationFrames {
    /// The container format.
    public let format: ImageFormat
    /// Canvas width in pixels.
    public let canvasWidth: Int
    /// Canvas height in pixels.
    public let canvasHeight: Int
    /// Frames, as the headers declare them.
    public let frameCount: Int
    /// How many times the animation plays; 0 means forever.
    public let loopCount: Int
    /// The limits checked from the headers and again while decoding.
    public let limits: DecodingLimits
    private let data: Data

    /// Reads the headers of `data`; `nil` when it is a still image (JPEG,
    /// PNG, a still WebP, an APNG or GIF of one frame).
    ///
    /// - Throws: ``ImageCodecError`` when the headers are damaged or the
    ///   canvas, frame count or total pixels exceed `limits`.
    public init?(_ data: Data, limits: DecodingLimits = .default) throws(ImageCodecError) {
        let format = try ImageFormat.sniff(data)
        try limits.checkInput(byteCount: data.count, format: format)
        switch format {
        case .webp:
            let features = try WebPFeatures(data)
            guard features.isAnimated else { return nil }
            let animation = try WebPDecoder(limits: limits).animationInfo(data)
            canvasWidth = features.width
            canvasHeight = features.height
            frameCount = animation.frameCount
            loopCount = animation.loopCount
        case .apng:
            let header = try PNGDecoder.readHeader(data)
            guard header.frameCount > 1 else { return nil }
            canvasWidth = header.width
            canvasHeight = header.height
            frameCount = header.frameCount
            loopCount = header.loopCount ?? 0
        case .gif:
            let header = try GIFDecoder.readHeader(data)
            // A later frame past the limits refuses the file, even when only
            // the first frame is wanted: the same file gets the same answer.
            try limits.checkFrame(width: header.frameExtent.width, height: header.frameExtent.height, format: .gif)
            guard header.frameCount > 1 else { return nil }
            canvasWidth = header.width
            canvasHeight = header.height
            frameCount = header.frameCount
            loopCount = header.loopCount
        case .jpeg, .png, .avif:
            // AVIF image sequences take the still path: their first frame.
            return nil
        case .heic:
            throw ImageDecoder.heicUnsupported
        }
        try limits.checkAnimation(width: canvasWidth, height: canvasHeight, frames: frameCount, format: format)
        self.format = format
        self.limits = limits
        self.data = data
    }

    /// Decodes the frames in order, calling `body` with each composited
    /// canvas before the next is decoded.
    ///
    /// - Throws: ``ImageCodecError`` for damaged data, and what `body` throws.
    public func forEachFrame(_ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Void) throws(ImageCodecError) {
        try visitFrames { frame throws(ImageCodecError) in
            try body(frame)
            return true
        }
    }

    /// The first composited frame, decoding nothing after it.
    ///
    /// - Throws: ``ImageCodecError`` for damaged data.
    public func firstFrame() throws(ImageCodecError) -> Image {
        var first: Image?
        try visitFrames { frame throws(ImageCodecError) in
            first = frame.image
            return false
        }
        guard let first else { throw ImageCodecError.corrupt(format, "the animation holds no frame") }
        return first
    }

    /// Calls `body` with each frame until it returns `false`.
    private func visitFrames(_ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Bool) throws(ImageCodecError) {
        // The decoders' frame callbacks cannot throw; what `body` throws waits here.
        var failure: ImageCodecError?
        func visit(_ frame: AnimatedImage.Frame) -> Bool {
            do {
                return try body(frame)
            } catch {
                failure = error
                return false
            }
        }
        switch format {
        case .webp:
            try data.withRawBytes { raw throws(ImageCodecError) in
                _ = try WebPDecoder(limits: limits).forEachAnimationFrame(raw) { visit($0) }
            }
        case .apng:
            try data.withByteBuffer { bytes throws(ImageCodecError) in
                let stream = try APNGStream(parsing: bytes, limits: limits)
                guard let control = stream.animation else {
                    throw ImageCodecError.corrupt(.apng, "the animation control chunk went missing")
                }
                try APNGDecoder(limits: limits).forEachFrame(of: stream, control) { frame, _ in visit(frame) }
            }
        case .gif:
            try data.withByteBuffer { bytes throws(ImageCodecError) in
                _ = try GIFDecoder(limits: limits).forEachFrame(UnsafeRawBufferPointer(bytes)) { frame, _ in
                    visit(frame)
                }
            }
        case .jpeg, .png, .avif, .heic:
            throw ImageCodecError(.unsupported, format: format, "\(format) is not an animation")
        }
        if let failure { throw failure }
    }
}
