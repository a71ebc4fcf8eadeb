/// The container formats WebPBridge reads and writes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case webp
    case jpeg
    case png
    /// Animated PNG: a PNG whose `acTL` chunk comes before the first `IDAT`.
    case apng
    case gif
    /// AVIF: AV1 stills (and image sequences) in an ISO-BMFF (HEIF) container.
    case avif
    /// HEIC: HEVC stills (and image sequences) in an ISO-BMFF (HEIF)
    /// container, what an iPhone camera writes. Decoded where ImageIO is
    /// (Apple platforms); the Linux codecs have no HEVC decoder and answer
    /// `.unsupported`.
    case heic

    /// The MIME type a server sends for the format.
    public var mimeType: String {
        switch self {
        case .webp: "image/webp"
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .apng: "image/apng"
        case .gif: "image/gif"
        case .avif: "image/avif"
        case .heic: "image/heic"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        default: rawValue
        }
    }

    public var description: String {
        switch self {
        case .webp: "WebP"
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .apng: "APNG"
        case .gif: "GIF"
        case .avif: "AVIF"
        case .heic: "HEIC"
        }
    }
}
