/// What a GIF says about itself, read without decoding pixels (for `info`).
public struct GIFHeader: Sendable, Equatable {
    /// Logical screen width in pixels.
    public var width: Int
    /// Logical screen height in pixels.
    public var height: Int
    /// Number of images (frames) in the file.
    public var frameCount: Int
    /// How many times the animation plays, 0 meaning forever (see
    /// ``GIFDecoder`` for how the NETSCAPE2.0 value maps to this).
    public var loopCount: Int
    /// Whether some frame declares a transparent colour index.
    public var hasAlpha: Bool

    /// Creates a header.
    public init(width: Int, height: Int, frameCount: Int, loopCount: Int, hasAlpha: Bool) {
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.hasAlpha = hasAlpha
    }
}
