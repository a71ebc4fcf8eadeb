import ConcurrencySupport
public import Foundation
import HTTPFields
public import ImagePipeline

/// A loader in front of an image origin that answers the `format/avif`
/// variant itself (the origin under test may not make AVIF): ``avifBytes``
/// with 200, or a failure status with a short text body. Everything else
/// goes to the wrapped loader. Counts the AVIF variant fetches, and the WebP
/// variant and original fetches of `.jpg` images, so the proxy's and the URL
/// protocol's AVIF tests check the same fetches.
public final class AVIFVariantLoader: DataLoading, Sendable {
    /// A bare ISO-BMFF `ftyp` box with major brand `avif`: what the AVIF
    /// variant answers with 200.
    public static let avifBytes = Data(
        [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))

    private let origin: any DataLoading
    private let avifStatus: Int
    private let counts = Lock((avif: 0, webP: 0, originals: 0))

    /// - Parameters:
    ///   - origin: where every request but the AVIF variant goes.
    ///   - avifStatus: the AVIF variant's status (200 answers ``avifBytes``).
    public init(_ origin: any DataLoading, avifStatus: Int) {
        self.origin = origin
        self.avifStatus = avifStatus
    }

    /// AVIF variant fetches, WebP variant fetches and original fetches so
    /// far (the last two of `.jpg` images only). Thread-safe.
    public var fetched: (avif: Int, webP: Int, originals: Int) { counts.withLock { $0 } }

    public func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        let query = request.url.query ?? ""
        if query.contains("format/avif") {
            counts.withLock { $0.avif += 1 }
            return DataResponse(
                url: request.url, statusCode: avifStatus,
                headers: ["content-type": "image/avif", "cache-control": "max-age=60"],
                body: avifStatus == 200 ? Self.avifBytes : Data("no AVIF variant".utf8))
        }
        if request.url.path.hasSuffix(".jpg") {
            counts.withLock { counts in
                if query.contains("format/webp") { counts.webP += 1 } else { counts.originals += 1 }
            }
        }
        return try await origin.load(request, onChunk: onChunk)
    }
}
