/// An animation whose composited frames can be visited in display order,
/// one at a time: held in memory (``AnimatedImage``), decoded on demand
/// (``AnimationReader``) or resized on the way (``MappedAnimation``).
///
/// Encoders that take an `AnimationFrames` write each frame as it comes and
/// keep no more than the frame before it, so an animation read by
/// ``AnimationReader`` is converted in the memory of a few frames whatever
/// its frame count.
public protocol AnimationFrames: Sendable {
    /// Canvas width in pixels; every frame has it.
    var canvasWidth: Int { get }
    /// Canvas height in pixels; every frame has it.
    var canvasHeight: Int { get }
    /// How many frames ``forEachFrame(_:)`` visits, as far as the headers tell.
    var frameCount: Int { get }
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int { get }

    /// Calls `body` with each frame in order; a frame is not kept after
    /// `body` returns unless `body` keeps it.
    ///
    /// - Throws: what decoding or `body` throws.
    func forEachFrame(_ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Void) throws(ImageCodecError)
}

extension AnimatedImage: AnimationFrames {
    /// The number of frames.
    public var frameCount: Int { frames.count }

    /// Calls `body` with each frame in order.
    public func forEachFrame(_ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Void) throws(ImageCodecError) {
        for frame in frames { try body(frame) }
    }
}
