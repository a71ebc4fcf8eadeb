public import Foundation

/// What to do with one image request, decided by ``ClientPolicy``.
public enum ClientDecision: Sendable, Hashable, CustomStringConvertible {
    /// Fetch the original URL and hand the response over untouched.
    case passThrough(reason: String)
    /// Fetch this (WebP) URL and serve it as WebP: the client decodes WebP.
    case serveWebP(URL)
    /// Fetch this (WebP) URL and transcode it to JPEG/PNG: the client cannot decode WebP.
    case transcode(URL)

    /// The URL to fetch: the variant, or `original` when passing through.
    public func fetchURL(original: URL) -> URL {
        switch self {
        case .passThrough: original
        case .serveWebP(let url), .transcode(let url): url
        }
    }

    /// `serve WebP`, `transcode`, or `pass through (reason)`.
    public var description: String {
        switch self {
        case .passThrough(let reason): "pass through (\(reason))"
        case .serveWebP: "serve WebP"
        case .transcode: "transcode"
        }
    }
}
