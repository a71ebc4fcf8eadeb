/// The response headers by which both bridges — the in-process
/// `WebPBridgeURLProtocol` and the `BridgeProxy` — tell a client what
/// happened to its image: one set of names, whichever bridge answered.
public enum BridgeDiagnosticHeader {
    /// The URL the bytes were fetched from: the variant, or the original after a fallback.
    public static let fetchedURL = "X-WebPBridge-Fetched-URL"
    /// Where the bytes came from: `memory`, `disk`, `network` or `revalidated`.
    public static let source = "X-WebPBridge-Source"
    /// Body bytes received over the network to answer this request (the
    /// variant, plus the original after a fallback or a passthrough; `0` for
    /// a cache hit): the network's cost, which differs from the body's size
    /// when the bridge transcoded.
    public static let wireBytes = "X-WebPBridge-Wire-Bytes"
    /// `1` when the variant failed and the original was used, else `0`.
    public static let fallback = "X-WebPBridge-Fallback"
    /// The cache key: the rewritten URL, normalised.
    public static let cacheKey = "X-WebPBridge-Cache-Key"
    /// How the image path answered: `webp`, `transcoded`, `untouched`,
    /// `fallback`, `not-modified` or `original` (handed over untouched: the
    /// variant would not decode, was too large or may not be transformed).
    public static let delivery = "X-WebPBridge-Delivery"
}
