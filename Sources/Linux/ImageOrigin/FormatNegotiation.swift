import WebPBridge

/// Which format a plain JPEG, PNG or GIF URL is served in, from the request's
/// `Accept`: a pure decision, the same for every request with that header.
enum FormatNegotiation {
    /// The format to make, or `nil` to serve the source.
    ///
    /// - `--auto-webp` alone (``ImageOrigin/Configuration/autoWebP``): WebP
    ///   when `image/webp` is named with q > 0, as before.
    /// - `--auto-format` (``ImageOrigin/Configuration/autoFormat``): AVIF or
    ///   WebP only when the client names it exactly (`image/*` and `*/*`
    ///   do not count: Safari before 16 sends `image/*` and shows no AVIF)
    ///   with q > 0, and only when its q is the highest of AVIF, WebP and
    ///   the source's own type; ties prefer AVIF, then WebP, then the source
    ///   (RFC 9110 §12.5.1 leaves ties to the server), and ``candidates(accept:sourceFormat:autoWebP:autoFormat:)``
    ///   lists every format tied. The one negotiation
    ///   the bridge's client policy uses too (``AcceptHeader/preferred(_:in:over:)``).
    static func choose(
        accept: String?, sourceFormat: ImageFormat, autoWebP: Bool, autoFormat: Bool
    ) -> ImageFormat? {
        candidates(accept: accept, sourceFormat: sourceFormat, autoWebP: autoWebP, autoFormat: autoFormat).first
    }

    /// Every format the origin may answer in, the preferred first: under
    /// `--auto-format` each of AVIF and WebP that ties for the highest q
    /// (``AcceptHeader/mostPreferred(_:in:over:)``) — Chrome's and Firefox's
    /// `Accept` name both at q = 1, and the nginx recipe's `avif` class sends
    /// both — of which the origin serves the smallest
    /// (``ImageTransformer/transform(_:pipeline:smallestOf:saveData:)``). Empty: the source.
    static func candidates(
        accept: String?, sourceFormat: ImageFormat, autoWebP: Bool, autoFormat: Bool
    ) -> [ImageFormat] {
        guard autoFormat else { return autoWebP && AcceptHeader.acceptsWebP(accept) ? [.webp] : [] }
        let formats: [ImageFormat] = [.avif, .webp]
        return AcceptHeader.mostPreferred(formats.map(\.mimeType), in: accept, over: sourceFormat.mimeType)
            .map { formats[$0] }
    }
}
