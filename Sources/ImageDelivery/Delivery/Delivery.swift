public import Foundation
public import HTTPFields
public import ImageCoding
public import ImagePipeline
import URLRewriting

/// The image path's answer to one request, for an adapter to send as it
/// sends things: the proxy as an HTTP response, the URL protocol through
/// its client. Every decision is made; the adapter only translates.
public struct Delivery: Sendable {
    /// What the client gets.
    public enum Content: Sendable {
        /// `200` with `body` in `format` (`HEAD`: the same fields, no body).
        case image(body: Data, format: ImageFormat)
        /// `304 Not Modified`: the request's `If-None-Match` names the tag.
        case notModified
        /// The original, untouched, exactly as the upstream answers it: the
        /// adapter fetches ``Delivery/originalURL`` with the client's
        /// request (its `Accept` refusing WebP when ``refusesWebP``) and
        /// relays the answer, adding ``Delivery/vary`` to its `Vary`.
        case original(reason: String, refusesWebP: Bool)
        /// The upstream redirected and the request asked for redirects
        /// reported (``RedirectHandling/report``): the client is to follow it.
        case redirect(ImageRedirect)
        /// The transcode queue is full: `503` with `Retry-After`.
        case overloaded(retryAfterSeconds: Int)
        /// The client went away or the task was cancelled.
        case cancelled
        /// No answer from the upstream (refused, unreachable, timed out,
        /// broken): the proxy's `502`, the URL protocol's `URLError`.
        case upstreamFailure(DataLoadingError, url: String)
    }

    /// What the client gets.
    public var content: Content
    /// The original URL the request named.
    public var originalURL: URL
    /// The response's `Vary` (or the fields to add to the original's).
    public var vary: String
    /// The fields of an `image` or `notModified` answer, in order:
    /// `Content-Type` (not for 304), `Vary`, the upstream's `Cache-Control`,
    /// `Expires` and `Last-Modified`, and the delivered body's `ETag`.
    public var fields: HTTPFieldList
    /// The pipeline's response the answer was made from, when there was one:
    /// its URL, source, cache key and wire bytes are the diagnostics both
    /// bridges report.
    public var image: ImageDataResponse?
    /// Seconds spent transcoding, when the image was transcoded.
    public var transcodeSeconds: Double?
    /// Whether the body is a transcode kept from an earlier request (``TranscodeCache``).
    public var isKeptTranscode = false

    /// How the request ended, for metrics and logs.
    public var outcome: Outcome {
        switch content {
        case .image(_, let format):
            guard let image else { return .untouched }
            if image.isFallback { return .fallback }
            if transcodeSeconds != nil || isKeptTranscode { return .transcoded }
            if format == .webp { return .webp }
            return format.rawValue == VariantFormat.avif.rawValue ? .avif : .untouched
        case .notModified: return .notModified
        case .original: return .original
        case .redirect: return .redirect
        case .overloaded: return .overloaded
        case .cancelled: return .cancelled
        case .upstreamFailure: return .upstreamFailure
        }
    }

    /// How a request on the image path ended.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The variant as received (WebP to a WebP client).
        case webp
        /// The AVIF variant as received, to a client that names `image/avif`.
        case avif
        /// Transcoded for a client that cannot show the variant's format.
        case transcoded
        /// Bytes the client shows as they are that are not WebP (the CDN
        /// answered the variant request with the original's format).
        case untouched
        /// The variant failed; the original from the pipeline's fallback.
        case fallback
        /// `304` to a conditional request.
        case notModified = "not-modified"
        /// The original handed over untouched.
        case original
        /// A redirect reported to the client.
        case redirect
        /// `503`: the transcode queue was full.
        case overloaded
        /// The request was cancelled.
        case cancelled
        /// No answer from the upstream.
        case upstreamFailure = "upstream-failure"
    }

    /// Body bytes that crossed the network for this answer (0 for a cache
    /// hit); the original an adapter fetches afterwards is not included.
    public var networkBytes: Int { image?.networkBytes ?? 0 }

    /// The diagnostics both bridges report (``BridgeDiagnosticHeader``): how
    /// the path answered, and for an answer from the pipeline where its bytes
    /// came from, what they cost on the wire, whether the original replaced
    /// a failed variant, and the cache key. The proxy sends only the first
    /// and the wire bytes: its clients are not told the upstream's URLs.
    public var diagnosticFields: HTTPFieldList {
        var fields: HTTPFieldList = [BridgeDiagnosticHeader.delivery: outcome.rawValue]
        guard let image else { return fields }
        fields.add(name: BridgeDiagnosticHeader.fetchedURL, value: image.fetchedURL.absoluteString)
        fields.add(name: BridgeDiagnosticHeader.source, value: image.source.rawValue)
        fields.add(name: BridgeDiagnosticHeader.wireBytes, value: String(image.networkBytes))
        fields.add(name: BridgeDiagnosticHeader.fallback, value: image.isFallback ? "1" : "0")
        fields.add(name: BridgeDiagnosticHeader.cacheKey, value: image.cacheKey)
        return fields
    }
}
