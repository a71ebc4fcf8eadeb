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
    /// The furthest right and bottom edges any frame reaches (`left + width`,
    /// `top + height`), which may lie past the logical screen: what a
    /// decoder that grows the canvas to fit would allocate, and so what the
    /// limits are checked against before any frame is decoded.
    public var frameExtent: (width: Int, height: Int)

    /// Creates a header.
    public init(
        width: Int, height: Int, frameCount: Int, loopCount: Int, hasAlpha: Bool,
        frameExtent: (width: Int, height: Int)? = nil
    ) {
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.hasAlpha = hasAlpha
        self.frameExtent = frameExtent ?? (width, height)
    }

    public static func == (lhs: GIFHeader, rhs: GIFHeader) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.frameCount == rhs.frameCount
            && lhs.loopCount == rhs.loopCount && lhs.hasAlpha == rhs.hasAlpha
            && lhs.frameExtent == rhs.frameExtent
    }
}
