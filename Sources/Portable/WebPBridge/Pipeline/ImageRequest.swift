public import Foundation

/// One image request as an app builds it: the URL and every per-request
/// option, in one value.
///
/// ```swift
/// var request = ImageRequest(url: photoURL)
/// request.targetSize = ImageRequest.TargetSize(width: 640, height: 480)
/// request.priority = .high
/// let response = try await pipeline.image(for: request)
/// ```
///
/// ``ImagePipeline/plan(for:)-(ImageRequest)`` plans it once (rewrite and
/// cache keys) into a ``RequestPlan`` that carries the request down to the
/// fetch and the decode; nothing below plans it again. The bridge core's
/// ``DeliveryRequest`` holds one too, beside the HTTP facts a client sent.
public struct ImageRequest: Sendable, Hashable {
    /// The image URL as the page or the app names it (the original: the
    /// pipeline's rewriter chooses the variant).
    public var url: URL
    /// The largest size, in pixels, the image is shown at: it is decoded
    /// scaled to fit inside (never enlarged) through the codec's cheapest
    /// path, and kept in the memory cache at that size, apart from other
    /// sizes of the same image. `nil` (the default): decoded whole. The
    /// bytes fetched and kept on disk are the same either way.
    public var targetSize: TargetSize?
    /// The order among the pipeline's waiting decodes (and the platform
    /// loader's transfers, where it has priorities). Default ``Priority/normal``;
    /// ``ImagePipeline/prefetch(_:)`` uses ``Priority/low``.
    public var priority: Priority
    /// Which caches may answer and whether the network may be used.
    public var cachePolicy: CachePolicy
    /// Whether an upstream redirect is followed within the pipeline's
    /// ``RedirectPolicy`` (the default) or reported to the caller
    /// (``RedirectHandling/report``).
    public var redirects: RedirectHandling
    /// Whether to ask for the smaller answer a server gives a reader who
    /// saves data: the fetch carries `Save-Data: on`, which an origin that
    /// honours it (`webp-bridge origin --save-data`) answers with a lower
    /// quality and a smaller width. Default `false`;
    /// ``PrefetchPolicy``'s reduced tier (Low Data Mode) sets it.
    ///
    /// Such bytes may be worse than what other requests get, so they are
    /// kept under their own key (``RequestPlan/cacheKey``) and never answer
    /// a request that does not save data. The other way round costs nothing
    /// on the wire: a fresh entry of the full answer answers this request.
    public var savesData: Bool
    /// The width, in device pixels, of the slot the image fills, for a
    /// server that sizes by client hints: the fetch carries `Sec-CH-Width`
    /// with it rounded up to ``ClientHints/widthBuckets``
    /// (``widthHintBucket``), which an origin with `--client-hints` answers
    /// with a variant at most that wide. Default `nil`; `proxy
    /// --client-hints` sets it from a client's own hints. A width past the
    /// largest bucket is not sent.
    ///
    /// Like ``savesData``, the answer may be smaller than other requests',
    /// so it is kept under its own key, per bucket, and a fresh entry of the
    /// full answer answers this request.
    public var widthHint: Int?

    /// Creates the request; every parameter after `url` has a default.
    public init(
        url: URL, targetSize: TargetSize? = nil, priority: Priority = .normal,
        cachePolicy: CachePolicy = .useCache, redirects: RedirectHandling = .follow, savesData: Bool = false,
        widthHint: Int? = nil
    ) {
        self.url = url
        self.targetSize = targetSize
        self.priority = priority
        self.cachePolicy = cachePolicy
        self.redirects = redirects
        self.savesData = savesData
        self.widthHint = widthHint
    }

    /// ``widthHint`` rounded up to ``ClientHints/widthBuckets``: what is
    /// sent and what keys the answer; `nil` without a hint, for a hint
    /// outside ``ClientHints/widthRange``, or past the largest bucket.
    public var widthHintBucket: Int? {
        guard let widthHint, ClientHints.widthRange.contains(widthHint) else { return nil }
        return ClientHints.bucket(forWidth: widthHint)
    }

    /// Whether the answer may differ from the full one every other request
    /// gets (``savesData``, ``widthHintBucket``), and so is kept apart.
    public var asksForLess: Bool { savesData || widthHintBucket != nil }

    /// Sets in `fields` what this request asks an upstream for besides the
    /// URL: `Save-Data: on` when it ``savesData``, `Sec-CH-Width` with its
    /// ``widthHintBucket``; each replaces a field of that name. The one place
    /// both the pipeline's fetches and a bridge's relayed original say it.
    public func addHints(to fields: inout HTTPFieldList) {
        if savesData { fields[ClientHints.saveDataFieldName] = "on" }
        if let bucket = widthHintBucket { fields[ClientHints.widthFieldName] = String(bucket) }
    }

    /// The same request for `url`, with the same options.
    public func with(url: URL) -> ImageRequest {
        var request = self
        request.url = url
        return request
    }

    /// A size in pixels (a view's size in points times its screen's scale).
    public struct TargetSize: Sendable, Hashable, CustomStringConvertible {
        /// The largest width, 1–16383 (WebP's limit).
        public var width: Int
        /// The largest height, 1–16383.
        public var height: Int

        /// The size `width`×`height`, each clamped to 1–16383 so that no
        /// request can ask for more than a codec will make.
        public init(width: Int, height: Int) {
            self.width = min(max(width, 1), 16_383)
            self.height = min(max(height, 1), 16_383)
        }

        /// The size of a view `points` wide and high on a screen of `scale`
        /// pixels per point, rounded up.
        public init(width points: Double, height heightPoints: Double, scale: Double) {
            func pixels(_ value: Double) -> Int {
                let product = (value * scale).rounded(.up)
                return product.isFinite ? Int(min(max(product, 1), 16_383)) : 1
            }
            self.init(width: pixels(points), height: pixels(heightPoints))
        }

        public var description: String { "\(width)x\(height)" }
    }

    /// How urgent a request is. Waiting decodes start in this order (first
    /// come first served within a level); a request that joins a fetch or
    /// decode already under way for the same image shares it as it is.
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable {
        case veryLow = 0
        case low = 1
        case normal = 2
        case high = 3
        case veryHigh = 4

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The matching `URLSessionTask.priority` (0 lowest to 1 highest,
        /// 0.5 the default).
        public var transferPriority: Float {
            switch self {
            case .veryLow: 0.1
            case .low: 0.25
            case .normal: 0.5
            case .high: 0.75
            case .veryHigh: 0.9
            }
        }
    }

    /// Which caches may answer a request, and whether the network may be used.
    public enum CachePolicy: Sendable, Hashable {
        /// The memory cache, then a fresh disk entry, then the network
        /// (revalidating a stale entry). The default.
        case useCache
        /// The network, unconditionally: the caches are not read (a page's
        /// pull to refresh), and are written with what arrives.
        case reloadIgnoringCache
        /// The caches only, fresh or stale; never the network. A miss throws
        /// an ``ImagePipelineError`` whose ``ImagePipelineError/isNotCached``
        /// is true.
        case cacheOnly
    }
}
