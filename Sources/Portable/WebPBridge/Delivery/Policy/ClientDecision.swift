public import Foundation

/// What to do with one image request, decided by ``ClientPolicy``.
public enum ClientDecision: Sendable, Hashable, CustomStringConvertible {
    /// Fetch the original URL and hand the response over untouched.
    case passThrough(reason: String)
    /// Fetch this variant URL and serve it as it is, in `format`: the client
    /// shows that format (it names it in `Accept`).
    case serveVariant(URL, VariantFormat)
    /// Fetch this (WebP) URL and transcode it to JPEG/PNG: the client shows
    /// none of the rule's formats. Always from WebP: a transcode from AVIF
    /// would be the same JPEG/PNG at the same size, made by a slower decoder.
    case transcode(URL)

    /// The URL to fetch: the variant, or `original` when passing through.
    public func fetchURL(original: URL) -> URL {
        switch self {
        case .passThrough: original
        case .serveVariant(let url, _), .transcode(let url): url
        }
    }

    /// The format served as it is, for ``serveVariant(_:_:)``.
    public var servedFormat: VariantFormat? {
        if case .serveVariant(_, let format) = self { return format }
        return nil
    }

    /// `serve WebP`, `serve AVIF`, `transcode`, or `pass through (reason)`.
    public var description: String {
        switch self {
        case .passThrough(let reason): "pass through (\(reason))"
        case .serveVariant(_, let format): "serve \(format)"
        case .transcode: "transcode"
        }
    }
}
