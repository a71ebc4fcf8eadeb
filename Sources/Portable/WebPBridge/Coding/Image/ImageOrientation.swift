/// The EXIF orientation of a photo (TIFF tag 0x0112, values 1–8): how its
/// stored pixels must be turned to stand upright. Portable, so that every
/// codec sizes an oriented photo the same way (``ImageGeometry``); reading
/// the tag and turning pixels belong to the codecs.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether applying the orientation swaps width and height (5–8: the
    /// quarter turns, mirrored or not).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation of a tag's value, ``up`` for a missing or invalid
    /// one (0, 9 or more), as browsers and ImageIO treat them.
    public init(exifValue: Int?) {
        self = exifValue.flatMap(ImageOrientation.init(rawValue:)) ?? .up
    }
}
