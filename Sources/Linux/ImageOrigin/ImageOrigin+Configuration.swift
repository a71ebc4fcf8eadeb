public import Foundation

extension ImageOrigin {
    /// How the origin serves and transforms, with documented defaults.
    public struct Configuration: Sendable, Equatable {
        /// The folder whose files are served.
        public var root: String
        /// Style suffixes (`photo.jpg-WebPiOSW750`). Default none.
        public var styles: StyleSheet
        /// Serve a plain JPEG or PNG URL as WebP to clients whose `Accept`
        /// lists `image/webp` (q > 0), and the source to others. Default `false`.
        public var autoWebP: Bool
        /// Serve a plain JPEG, PNG or GIF URL as AVIF, WebP or the source (a
        /// GIF as an animated WebP, or an AVIF sequence with
        /// ``ImageTransformer/Configuration/negotiatesAVIFSequences``), by
        /// the client's `Accept` q-values (the rule: `FormatNegotiation`;
        /// docs/origin.md: `--auto-format`). Default `false`; overrides
        /// ``autoWebP`` when both are set.
        public var autoFormat: Bool
        /// Qualities and limits of transformations.
        public var transformer: ImageTransformer.Configuration
        /// The one memory budget every cache's bound is a share of (see
        /// ``ImageOrigin/MemoryBudget``). Default 512 MiB. Setting it sets
        /// ``variantCacheBytes`` and ``sourceCacheBytes`` to their shares;
        /// set those after it to override one.
        public var memoryBudget: MemoryBudget {
            didSet {
                variantCacheBytes = memoryBudget.variantCacheBytes
                sourceCacheBytes = memoryBudget.sourceCacheBytes
            }
        }
        /// Bytes of transformed variants kept in memory, keys included.
        /// Default: the budget's share, 1/2 (256 MiB).
        public var variantCacheBytes: Int
        /// Bytes of source files kept in memory to serve them as they are,
        /// keys included; 0 serves every file from disk. Default: the
        /// budget's share, 1/8 (64 MiB).
        public var sourceCacheBytes: Int
        /// Files up to this size are served from memory (up to
        /// ``sourceCacheBytes``), larger ones from disk. Default 1 MiB.
        public var maxMemoryServedFileBytes: Int
        /// Transformations running at once. Default: the number of cores.
        public var maxConcurrentTransforms: Int
        /// Transformations waiting for a core before new ones get 503. Default 64.
        public var maxQueuedTransforms: Int
        /// `Cache-Control` of every image response. Default one day, public.
        public var cacheControl: String
        /// `Cache-Control` of the site's other files (pages, stylesheets,
        /// scripts), which change under the same name. Default `no-cache`:
        /// caches keep them and revalidate each use, a `304` when unchanged.
        public var siteCacheControl: String
        /// `Retry-After` seconds on 503. Default 1.
        public var retryAfterSeconds: Int
        /// How long a ready answer is given again without checking that
        /// its file is unchanged (one `stat`). Zero by default: every answer
        /// is checked, so a replaced file is never answered with its old
        /// version. With a window of `w`, a file changed on disk may still
        /// be answered with its previous version for up to `w` after the
        /// change; `webp-bridge origin` uses 1 s.
        public var readyAnswerRevalidation: Duration = .zero
        /// Size JPEG and PNG images by the client's hints (`--client-hints`):
        /// `Sec-CH-Width`/`Width`, else `Sec-CH-Viewport-Width`/`Viewport-Width`
        /// × `Sec-CH-DPR`/`DPR`, rounded up to ``ClientHints/widthBuckets``,
        /// lowering (never raising) the URL's own width; the answers say
        /// `Vary` on every hint field, and `Content-DPR` where a hint
        /// changed the size (docs/origin.md: Client hints). Default `false`.
        public var clientHints = false
        /// Honour `Save-Data: on` (`--save-data`): one width bucket smaller
        /// when a hint gave one, and a WebP or AVIF quality searched at the
        /// lower ``ImageTransformer/Configuration/saveDataQualityTarget``
        /// (never above the fixed default); `Vary: Save-Data`. Default `false`.
        public var saveData = false

        public init(
            root: String, styles: StyleSheet = .empty, autoWebP: Bool = false, autoFormat: Bool = false,
            transformer: ImageTransformer.Configuration = ImageTransformer.Configuration(),
            memoryBudget: MemoryBudget = MemoryBudget(), variantCacheBytes: Int? = nil, sourceCacheBytes: Int? = nil,
            maxMemoryServedFileBytes: Int = 1 << 20,
            maxConcurrentTransforms: Int = ProcessInfo.processInfo.activeProcessorCount,
            maxQueuedTransforms: Int = 64, cacheControl: String = "public, max-age=86400",
            siteCacheControl: String = "no-cache", retryAfterSeconds: Int = 1
        ) {
            self.root = root
            self.styles = styles
            self.autoWebP = autoWebP
            self.autoFormat = autoFormat
            self.transformer = transformer
            self.memoryBudget = memoryBudget
            self.variantCacheBytes = variantCacheBytes ?? memoryBudget.variantCacheBytes
            self.sourceCacheBytes = sourceCacheBytes ?? memoryBudget.sourceCacheBytes
            self.maxMemoryServedFileBytes = maxMemoryServedFileBytes
            self.maxConcurrentTransforms = maxConcurrentTransforms
            self.maxQueuedTransforms = maxQueuedTransforms
            self.cacheControl = cacheControl
            self.siteCacheControl = siteCacheControl
            self.retryAfterSeconds = retryAfterSeconds
        }
    }
}
