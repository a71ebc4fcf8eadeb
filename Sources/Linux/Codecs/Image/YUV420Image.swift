/// A picture as WebP's lossy coder stores it: 8-bit Y′CbCr (BT.601,
/// limited "video" range: Y 16–235, Cb and Cr 16–240), chroma at half the
/// resolution both ways (4:2:0) and sited between the luma samples, each
/// plane's rows top to bottom with no padding.
///
/// Made by ``JPEGDecoder/decodeYUV420(_:width:height:)`` straight from a
/// JPEG's own Y′CbCr planes and written by ``WebPEncoder/encode(_:)-(YUV420Image)``,
/// so a photo variant never goes through RGB.
public struct YUV420Image: Sendable, Equatable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height` luma samples.
    public var y: [UInt8]
    /// `chromaWidth * chromaHeight` blue-difference samples.
    public var u: [UInt8]
    /// `chromaWidth * chromaHeight` red-difference samples.
    public var v: [UInt8]

    /// Width of the chroma planes: half the width, rounded up.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// Height of the chroma planes: half the height, rounded up.
    public var chromaHeight: Int { (height + 1) / 2 }

    /// Creates an image from its planes.
    ///
    /// - Precondition: `width` and `height` are positive, `y` holds
    ///   `width * height` samples and `u` and `v` each
    ///   `chromaWidth * chromaHeight`.
    public init(width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8]) {
        precondition(width > 0 && height > 0, "image dimensions must be positive")
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        precondition(y.count == width * height && u.count == chroma && v.count == chroma, "plane sizes")
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
    }
}
