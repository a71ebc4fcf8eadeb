/// What a PNG or APNG header says, read without decoding pixels (for `info`).
public struct PNGHeader: Sendable, Equatable {
    /// Width in pixels (the canvas width for an APNG).
    public var width: Int
    /// Height in pixels (the canvas height for an APNG).
    public var height: Int
    /// Whether the image has an alpha channel (colour type 4 or 6) or a tRNS chunk.
    public var hasAlpha: Bool
    /// Bits per sample: 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    /// Frames the `acTL` chunk declares; 1 for a still PNG.
    public var frameCount: Int
    /// How many times an APNG plays (0 means forever); `nil` for a still PNG.
    public var loopCount: Int?

    /// Creates a header.
    public init(width: Int, height: Int, hasAlpha: Bool, bitDepth: Int, frameCount: Int, loopCount: Int?) {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.bitDepth = bitDepth
        self.frameCount = frameCount
        self.loopCount = loopCount
    }

    /// Whether the stream is an APNG (it has an `acTL` chunk before IDAT).
    public var isAnimated: Bool { loopCount != nil }
}
