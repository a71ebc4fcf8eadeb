public import Foundation

/// The image path's answer to one request, finished: the core walked the
/// whole ladder (AVIF → WebP → original), fetched and relayed the original
/// when it hands it over, and mapped every failure to its status and text
/// (``answer``). An adapter sends it as it sends things — the proxy as an
/// HTTP response, the URL protocol through its client, the scheme bridge
/// as a scheme response — translating only what its medium requires (a
/// `URLError` for a network failure, a redirect its client follows).
public struct Delivery: Sendable {
    /// What the client gets.
    public enum Content: Sendable {
        /// `200` with `body` in `format` (`HEAD`: the same fields, no body).
        case image(body: Data, format: ImageFormat)
        /// `304 Not Modified`: the request's `If-None-Match` names the tag.
        case notModified
        /// The original, untouched, exactly as the upstream answered it:
        /// the core fetched ``Delivery/originalURL`` with the request's
        /// end-to-end fields (its `Accept` refusing WebP when the policy
        /// does not serve this client WebP) and relays the answer through
        /// the hop-by-hop filter, ``Delivery/vary`` added to its `Vary`.
        /// `reason` says why the image path handed it over (for logs).
        case original(reason: String, relayed: RelayedResponse)
        /// The upstream redirected and the request asked for redirects
        /// reported (``RedirectHandling/report``): the client is to follow it.
        case redirect(ImageRedirect)
        /// The transcode queue is full: `503` with `Retry-After`.
        case overloaded(retryAfterSeconds: Int)
        /// The client went away or the task was cancelled.
        case cancelled
        /// No answer from the upstream (refused, unreachable, timed out,
        /// broken, too large): the proxy's `502`, the URL protocol's `URLError`.
        case upstreamFailure(DataLoadingError, url: String)
        /// The upstream answered the original with a status no client may
        /// be given (outside 200–599): `502`.
        case invalidUpstreamStatus(Int)
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
    /// The bounds of the original's relay, which failure texts name.
    var relayLimits: ImageBridge.Relay.Limits = .init()

    init(
        content: Content, originalURL: URL, vary: String, fields: HTTPFieldList, image: ImageDataResponse?,
        transcodeSeconds: Double? = nil, relayLimits: ImageBridge.Relay.Limits
    ) {
        self.content = content
        self.originalURL = originalURL
        self.vary = vary
        self.fields = fields
        self.image = image
        self.transcodeSeconds = transcodeSeconds
        self.relayLimits = relayLimits
    }
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
        case .upstreamFailure, .invalidUpstreamStatus: return .upstreamFailure
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

    /// Body bytes the pipeline fetched for this answer (0 for a cache hit);
    /// the relayed original is ``relayedBytes``.
    public var networkBytes: Int { image?.networkBytes ?? 0 }

    /// Body bytes of the original the core relayed (0 when it relayed none).
    public var relayedBytes: Int {
        if case .original(_, let relayed) = content { return relayed.body.count }
        return 0
    }

    /// The diagnostics both bridges report (``BridgeDiagnosticHeader``): how
    /// the path answered, and for an answer from the pipeline where its bytes
    /// came from, what they cost on the wire, whether the original replaced
    /// a failed variant, and the cache key. The proxy sends only the first
    /// and the wire bytes: its clients are not told the upstream's URLs.
    public var diagnosticFields: HTTPFieldList {
        var fields: HTTPFieldList = [BridgeDiagnosticHeader.delivery: outcome.rawValue]
        if case .original(_, let relayed) = content {
            fields.add(name: BridgeDiagnosticHeader.fetchedURL, value: relayed.url.absoluteString)
            fields.add(name: BridgeDiagnosticHeader.source, value: ImageSource.network.rawValue)
            fields.add(name: BridgeDiagnosticHeader.wireBytes, value: String(networkBytes + relayedBytes))
            return fields
        }
        guard let image else { return fields }
        fields.add(name: BridgeDiagnosticHeader.fetchedURL, value: image.fetchedURL.absoluteString)
        fields.add(name: BridgeDiagnosticHeader.source, value: image.source.rawValue)
        fields.add(name: BridgeDiagnosticHeader.wireBytes, value: String(image.networkBytes))
        fields.add(name: BridgeDiagnosticHeader.fallback, value: image.isFallback ? "1" : "0")
        fields.add(name: BridgeDiagnosticHeader.cacheKey, value: image.cacheKey)
        return fields
    }
}
