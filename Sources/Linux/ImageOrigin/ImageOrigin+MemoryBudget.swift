extension ImageOrigin {
    /// One memory budget for the whole origin, split into documented
    /// shares: each cache is bounded by its share in bytes, keys, headers
    /// and bookkeeping included, and a share is left for request bodies in
    /// flight (which the HTTP server enforces). Work in flight has a share
    /// too: each transformation's estimated peak is reserved from it
    /// before it starts (``ImageTransformer/Cost``), or the request is
    /// answered 503 with `Retry-After` (busy) or 413 (it could never fit).
    ///
    /// The shares of the default 512 MiB: variants 1/2 (256 MiB), source
    /// files 1/8 (64 MiB), ready answers 1/16 (32 MiB), parsed fops, source
    /// facts and path resolutions 1/512 each (1 MiB), request bodies 1/16
    /// (32 MiB), and work in flight the rest, just under 1/4 (125 MiB).
    /// docs/work-budget.md has the estimates and measured peaks.
    public struct MemoryBudget: Sendable, Equatable {
        /// 512 MiB, the default ``totalBytes``.
        public static let defaultTotalBytes = 512 << 20

        /// The whole budget, in bytes.
        public var totalBytes: Int

        /// - Parameter totalBytes: The whole budget; 512 MiB by default.
        public init(totalBytes: Int = MemoryBudget.defaultTotalBytes) {
            self.totalBytes = max(0, totalBytes)
        }

        /// Transformed variants: 1/2.
        public var variantCacheBytes: Int { totalBytes / 2 }
        /// Small source files served from memory: 1/8.
        public var sourceCacheBytes: Int { totalBytes / 8 }
        /// Ready answers to repeated requests, bodies included (see
        /// `ReadyAnswers`): 1/16.
        public var readyAnswersBytes: Int { totalBytes / 16 }
        /// Parsed processing requests by their text: 1/512.
        public var pipelineMemoryBytes: Int { totalBytes / 512 }
        /// Format, tag and date of each source file: 1/512.
        public var sourceFactsBytes: Int { totalBytes / 512 }
        /// Resolved paths under the root: 1/512.
        public var fileResolutionBytes: Int { totalBytes / 512 }
        /// Request bodies in flight, all connections together: 1/16. The
        /// HTTP server's limit; the origin itself serves only GET and HEAD.
        public var requestBodyBytes: Int { totalBytes / 16 }
        /// Variants being made, all at once: what the other shares leave,
        /// just under 1/4 (125 MiB of 512). A variant whose estimated peak
        /// is larger than this is refused (413).
        public var workInFlightBytes: Int {
            totalBytes - variantCacheBytes - sourceCacheBytes - readyAnswersBytes - pipelineMemoryBytes
                - sourceFactsBytes - fileResolutionBytes - requestBodyBytes
        }
        /// Quality searches' planes kept for the next search
        /// (``SSIMULACRA2/PlanePool``): at most half of
        /// ``workInFlightBytes``, and inside it, not beside it: they count
        /// against the share, and a variant that needs the memory has them
        /// freed first.
        public var scorerPlanesBytes: Int { workInFlightBytes / 2 }
    }
}
