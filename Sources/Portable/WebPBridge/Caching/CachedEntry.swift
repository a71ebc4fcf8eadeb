public import Foundation

/// One response kept by a ``DataCaching`` cache: the body exactly as
/// received, and what is needed to decide whether it is fresh and to
/// revalidate it.
///
/// A value type, `Sendable`: safe to pass between threads.
public struct CachedEntry: Sendable, Equatable {
    /// The cache key the entry was stored under (for the pipeline, the
    /// rewritten URL).
    public var key: String
    /// The URL that answered (after redirects).
    public var url: URL
    /// The HTTP status of the stored response (always 200 today).
    public var statusCode: Int
    /// The `Content-Type` the server sent, if any.
    public var contentType: String?
    /// The `ETag` validator, if any.
    public var etag: String?
    /// The `Last-Modified` validator, verbatim, if any.
    public var lastModified: String?
    /// The `Cache-Control` header, verbatim, if any.
    public var cacheControl: String?
    /// The `Expires` header, verbatim, if any.
    public var expires: String?
    /// When the entry was stored or last revalidated.
    public var storedAt: Date
    /// When the entry stops being fresh.
    public var expiresAt: Date
    /// `true` when the response said `no-cache`: it may be stored, but must be
    /// revalidated before every use.
    public var requiresRevalidation: Bool
    /// The body, byte for byte as received (for an image, the WebP itself).
    public var data: Data

    /// Creates an entry.
    public init(
        key: String, url: URL, statusCode: Int = 200, contentType: String? = nil, etag: String? = nil,
        lastModified: String? = nil, cacheControl: String? = nil, expires: String? = nil, storedAt: Date,
        expiresAt: Date, requiresRevalidation: Bool = false, data: Data
    ) {
        self.key = key
        self.url = url
        self.statusCode = statusCode
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expires = expires
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.requiresRevalidation = requiresRevalidation
        self.data = data
    }

    /// Whether the entry may be used at `now` without asking the server.
    public func isFresh(now: Date) -> Bool {
        !requiresRevalidation && now < expiresAt
    }

    /// Whether the entry carries a validator (`ETag` or `Last-Modified`), so a
    /// stale copy can be revalidated with a conditional request instead of
    /// downloaded again.
    public var hasValidator: Bool { etag != nil || lastModified != nil }

    /// The entry as a response: its status, its stored headers and its body,
    /// e.g. for a bridge that passes the upstream's cache headers on.
    public var response: DataResponse {
        DataResponse(url: url, statusCode: statusCode, headers: headers, body: data)
    }

    /// The stored header fields.
    public var headers: HTTPFieldList {
        var headers = HTTPFieldList()
        headers["Content-Type"] = contentType
        headers["ETag"] = etag
        headers["Last-Modified"] = lastModified
        headers["Cache-Control"] = cacheControl
        headers["Expires"] = expires
        return headers
    }
}
