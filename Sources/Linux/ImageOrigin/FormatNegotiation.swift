import WebPBridge

/// Which format a plain JPEG or PNG URL is served in, from the request's
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
    ///   (RFC 9110 §12.5.1 leaves ties to the server). The one negotiation
    ///   the bridge's client policy uses too (``AcceptHeader/preferred(_:in:over:)``).
    static func choose(
        accept: String?, sourceFormat: ImageFormat, autoWebP: Bool, autoFormat: Bool
    ) -> ImageFormat? {
        guard autoFormat else { return autoWebP && AcceptHeader.acceptsWebP(accept) ? .webp : nil }
        let formats: [ImageFormat] = [.avif, .webp]
        let preferred = AcceptHeader.preferred(formats.map(\.mimeType), in: accept, over: sourceFormat.mimeType)
        return preferred.map { formats[$0] }
    }
}
