/// The container formats WebPBridge reads and writes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case webp
    case jpeg
    case png
    /// Animated PNG: a PNG whose `acTL` chunk comes before the first `IDAT`.
    case apng
    case gif

    /// The MIME type a server sends for the format.
    public var mimeType: String {
        switch self {
        case .webp: "image/webp"
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .apng: "image/apng"
        case .gif: "image/gif"
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
        }
    }
}
