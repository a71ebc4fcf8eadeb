public import Foundation

extension ImagePipeline {
    /// What the pipeline is built from, with documented defaults. The data
    /// loader, the caches and the clock are injected so tests use mocks,
    /// temp folders and test clocks.
    public struct Configuration: Sendable {
        /// Rewrites original URLs to WebP variants; `nil` loads URLs as given.
        public var rewriter: Rewriter?
        /// Fetches bytes.
        public var dataLoader: any DataLoading
        /// Keeps the bytes as received: a ``DiskCache`` for apps and the
        /// bridge, by default a 64 MiB ``MemoryDataCache``; `nil` for none.
        public var dataCache: (any DataCaching)?
        /// Keeps decoded images; `nil` for none.
        public var memoryCache: MemoryCache?
        /// Decodes images: by default ``ImagePipeline/platformCodec``, the
        /// C libraries on Linux and ImageIO on Apple platforms.
        public var codec: any ImageCodec
        /// Bounds on what is decoded.
        public var decodingLimits: DecodingLimits
        /// Decodes running at once. Default ``DecodingConcurrency/default``:
        /// 1 on iOS, tvOS, watchOS and visionOS, 2 on macOS, every core on a server.
        public var decodingConcurrency: Int
        /// How long a failed variant is not retried (its original is fetched
        /// directly instead). Default 5 minutes.
        public var negativeCacheLifetime: TimeInterval
        /// The most bytes of failed-variant keys remembered, keys included
        /// (a key longer than 4 KiB is not remembered). Default 4 MiB.
        public var negativeCacheBytes: Int
        /// Time limit of each network request. Default 30 s.
        public var requestTimeout: Duration
        /// Largest body accepted from the network. Default 32 MiB.
        public var maxBodyBytes: Int
        /// `Accept` sent when fetching a WebP variant.
        public var variantAccept: String
        /// `Accept` sent when fetching an original.
        public var originalAccept: String
        /// Prefetches running at once. Default 4.
        public var prefetchConcurrency: Int
        /// Which redirect hops are followed, and how many (loaders never
        /// follow them). Default ``RedirectPolicy/anyHTTP``: any `http` or
        /// `https` URL, up to 5 hops, as URLSession would.
        public var redirectPolicy: RedirectPolicy
        /// The current time, for cache freshness and the negative cache.
        public var now: @Sendable () -> Date

        public init(
            rewriter: Rewriter? = nil, dataLoader: any DataLoading, dataCache: (any DataCaching)? = MemoryDataCache(),
            memoryCache: MemoryCache? = MemoryCache(), codec: any ImageCodec = ImagePipeline.platformCodec,
            decodingLimits: DecodingLimits = .default,
            decodingConcurrency: Int = DecodingConcurrency.default,
            negativeCacheLifetime: TimeInterval = 300,
            negativeCacheBytes: Int = NegativeCache.defaultCapacityBytes, requestTimeout: Duration = .seconds(30),
            maxBodyBytes: Int = 32 << 20, variantAccept: String = "image/webp,image/*;q=0.8",
            originalAccept: String = "image/*,*/*;q=0.8", prefetchConcurrency: Int = 4,
            redirectPolicy: RedirectPolicy = .anyHTTP,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.rewriter = rewriter
            self.dataLoader = dataLoader
            self.dataCache = dataCache
            self.memoryCache = memoryCache
            self.codec = codec
            self.decodingLimits = decodingLimits
            self.decodingConcurrency = max(1, decodingConcurrency)
            self.negativeCacheLifetime = negativeCacheLifetime
            self.negativeCacheBytes = negativeCacheBytes
            self.requestTimeout = requestTimeout
            self.maxBodyBytes = maxBodyBytes
            self.variantAccept = variantAccept
            self.originalAccept = originalAccept
            self.prefetchConcurrency = max(1, prefetchConcurrency)
            self.redirectPolicy = redirectPolicy
            self.now = now
        }
    }
}
