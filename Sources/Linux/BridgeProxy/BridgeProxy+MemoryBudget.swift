extension BridgeProxy {
    /// One memory budget for the whole bridge, split into documented
    /// shares: each cache is bounded by its share in bytes, keys, headers
    /// and bookkeeping included, and a share is left for request bodies in
    /// flight (which the HTTP server enforces) and one for passed-through
    /// answers being sent. What is not shared out is headroom for work in
    /// flight (transcodes, bounded by the transcode queue; upstream bodies
    /// being received, by the pipeline's `maxBodyBytes`).
    ///
    /// The shares of the default 256 MiB: the in-memory data cache 1/4
    /// (64 MiB; none with a disk cache), the hit memo 1/8 (32 MiB), the
    /// pipeline's failed-variant cache 1/64 (4 MiB), rewritten pages 1/32
    /// (8 MiB, with `--rewrite-html`), finished transcodes 1/32 (8 MiB),
    /// routes kept from the immediate path for the asynchronous one 1/256
    /// (1 MiB), request bodies 1/4 (64 MiB), passed-through answers 1/4
    /// (64 MiB); 11/256 headroom.
    public struct MemoryBudget: Sendable, Equatable {
        /// 256 MiB, the default ``totalBytes``.
        public static let defaultTotalBytes = 256 << 20

        /// The whole budget, in bytes.
        public var totalBytes: Int

        /// - Parameter totalBytes: The whole budget; 256 MiB by default.
        public init(totalBytes: Int = MemoryBudget.defaultTotalBytes) {
            self.totalBytes = max(0, totalBytes)
        }

        /// The pipeline's `MemoryDataCache`, when the bridge keeps images in
        /// memory: 1/4.
        public var dataCacheBytes: Int { totalBytes / 4 }
        /// Ready answers to repeated cache hits: 1/8.
        public var hitMemoBytes: Int { totalBytes / 8 }
        /// The pipeline's negative cache of failed variants: 1/64.
        public var failedVariantsBytes: Int { totalBytes / 64 }
        /// Finished transcodes kept for the next client of the same class
        /// (``TranscodeCache``'s memory tier): 1/32.
        public var transcodeCacheBytes: Int { totalBytes / 32 }
        /// Rewritten pages kept for the next client (`--rewrite-html`): 1/32.
        public var rewrittenPagesBytes: Int { totalBytes / 32 }
        /// Routes the immediate path planned and kept for the asynchronous
        /// one (``PlannedRequests``): 1/256.
        public var plannedRequestsBytes: Int { totalBytes / 256 }
        /// Request bodies in flight, all connections together: 1/4. The
        /// HTTP server's limit.
        public var requestBodyBytes: Int { totalBytes / 4 }
        /// Passed-through answers held in memory until they are sent, all
        /// connections together: 1/4. Past it a passthrough is answered 503
        /// with `Retry-After`; a client that reads slowly holds its answer's
        /// bytes for as long as it takes.
        public var passthroughBodyBytes: Int { totalBytes / 4 }
    }
}
