public import Foundation

/// Encoded image bytes from the pipeline, with where they came from.
public struct ImageDataResponse: Sendable, Equatable {
    /// The bytes as received (never re-encoded).
    public var data: Data
    /// Their format, sniffed from the bytes (`ignore-error/1` may answer a
    /// WebP request with the original JPEG).
    public var format: ImageFormat
    /// The URL the bytes were fetched from: the variant, or the original
    /// after a fallback.
    public var fetchedURL: URL
    /// The cache key: the rewritten URL, normalised.
    public var cacheKey: String
    /// Whether the bytes are the WebP variant's (not the original's).
    public var isVariant: Bool
    /// Whether the variant failed and the original was fetched instead.
    public var isFallback: Bool
    public var source: ImageSource
    /// The upstream's status.
    public var statusCode: Int
    /// The upstream's cache-relevant fields as it sent them: `Content-Type`,
    /// `Cache-Control`, `ETag`, `Last-Modified` and `Expires`.
    public var headers: HTTPFieldList
    /// Body bytes that crossed the network for this response (0 for cache hits).
    public var networkBytes: Int
    /// For a data-cache hit, when its entry was stored (it identifies the
    /// entry: a new store gets a new date); `nil` for a network response.
    public var storedAt: Date?

    public init(
        data: Data, format: ImageFormat, fetchedURL: URL, cacheKey: String, isVariant: Bool, isFallback: Bool,
        source: ImageSource, statusCode: Int, headers: HTTPFieldList, networkBytes: Int, storedAt: Date? = nil
    ) {
        self.data = data
        self.format = format
        self.fetchedURL = fetchedURL
        self.cacheKey = cacheKey
        self.isVariant = isVariant
        self.isFallback = isFallback
        self.source = source
        self.statusCode = statusCode
        self.headers = headers
        self.networkBytes = networkBytes
        self.storedAt = storedAt
    }
}

/// A decoded image from the pipeline.
public struct ImageResponse: Sendable {
    public var image: DecodedImage
    /// The URL the bytes were fetched from.
    public var fetchedURL: URL
    public var cacheKey: String
    public var isVariant: Bool
    public var isFallback: Bool
    public var source: ImageSource
    /// `false` for the partial images of ``ImagePipeline/images(for:)``.
    public var isFinal: Bool
}
