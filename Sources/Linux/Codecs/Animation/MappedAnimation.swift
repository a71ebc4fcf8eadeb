/// Another animation with every frame passed through a function (a resize,
/// a crop) as it is visited, so a transformed animation is never held whole.
public struct MappedAnimation<Base: AnimationFrames>: AnimationFrames {
    /// The animation whose frames are transformed.
    public let base: Base
    /// The canvas width every transformed frame has.
    public let canvasWidth: Int
    /// The canvas height every transformed frame has.
    public let canvasHeight: Int
    private let transform: @Sendable (Image) throws(ImageCodecError) -> Image

    /// Creates an animation whose frames are `transform` applied to
    /// `base`'s; `transform` must return `canvasWidth`×`canvasHeight` images.
    public init(
        _ base: Base, canvasWidth: Int, canvasHeight: Int,
        transform: @escaping @Sendable (Image) throws(ImageCodecError) -> Image
    ) {
        self.base = base
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.transform = transform
    }

    /// The base's frame count.
    public var frameCount: Int { base.frameCount }
    /// The base's loop count.
    public var loopCount: Int { base.loopCount }

    /// Calls `body` with each of the base's frames, transformed.
    ///
    /// - Throws: what the base, `transform` or `body` throws; an
    ///   ``ImageCodecError`` when `transform` returns another size.
    public func forEachFrame(_ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Void) throws(ImageCodecError) {
        try base.forEachFrame { frame throws(ImageCodecError) in
            let image = try transform(frame.image)
            guard image.width == canvasWidth, image.height == canvasHeight else {
                throw ImageCodecError.invalidArgument(
                    nil, "a transformed frame is \(image.width)x\(image.height), not \(canvasWidth)x\(canvasHeight)")
            }
            try body(.init(image: image, durationMilliseconds: frame.durationMilliseconds))
        }
    }
}
