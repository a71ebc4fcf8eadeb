/// A decoded animation: every frame fully composited onto the canvas.
public struct AnimatedImage: Sendable, Equatable {
    /// One frame of an animation.
    public struct Frame: Sendable, Equatable {
        /// The whole canvas as it looks while this frame is shown.
        public var image: Image
        /// How long the frame is shown, in milliseconds.
        public var durationMilliseconds: Int

        /// Creates a frame.
        public init(image: Image, durationMilliseconds: Int) {
            self.image = image
            self.durationMilliseconds = durationMilliseconds
        }
    }

    /// Canvas width in pixels.
    public let canvasWidth: Int
    /// Canvas height in pixels.
    public let canvasHeight: Int
    /// Frames in display order; never empty.
    public var frames: [Frame]
    /// How many times the animation plays; 0 means forever.
    public var loopCount: Int

    /// Creates an animation.
    ///
    /// - Precondition: `frames` is not empty and every frame has the canvas size.
    public init(canvasWidth: Int, canvasHeight: Int, frames: [Frame], loopCount: Int) {
        precondition(!frames.isEmpty, "an animation has at least one frame")
        precondition(
            frames.allSatisfy { $0.image.width == canvasWidth && $0.image.height == canvasHeight },
            "every frame must have the canvas size")
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.frames = frames
        self.loopCount = loopCount
    }

    /// Whether any frame declares an alpha channel.
    public var hasAlpha: Bool { frames.contains { $0.image.hasAlpha } }
}

/// The result of decoding a file that may or may not be animated.
public enum DecodedImage: Sendable, Equatable {
    /// A still image.
    case still(Image)
    /// An animation of more than one frame (or an animated container).
    case animated(AnimatedImage)

    /// The still image, or the first frame of an animation.
    public var firstFrame: Image {
        switch self {
        case .still(let image): image
        case .animated(let animation): animation.frames[0].image
        }
    }

    /// Number of frames (1 for a still image).
    public var frameCount: Int {
        switch self {
        case .still: 1
        case .animated(let animation): animation.frames.count
        }
    }
}
