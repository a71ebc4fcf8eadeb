/// A format a rule's CDN can make a variant in: what a rule lists in
/// ``RewriteRule/formats``, in preference order, and what a client is
/// served when it accepts it.
public enum VariantFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// AVIF (`image/avif`): the smallest, shown by Chrome, Firefox, Safari 16+ and iOS 16+.
    case avif
    /// WebP (`image/webp`): the variant every rule makes.
    case webp

    /// The media type a client names in `Accept` and a server sends in `Content-Type`.
    public var mediaType: String {
        switch self {
        case .avif: "image/avif"
        case .webp: "image/webp"
        }
    }

    /// `AVIF` or `WebP`.
    public var description: String {
        switch self {
        case .avif: "AVIF"
        case .webp: "WebP"
        }
    }
}
