import Foundation

extension ImageBridge {
    /// What the image path is built from, with documented defaults. The
    /// rewriter is the pipeline's (``ImagePipeline/Configuration/rewriter``):
    /// one rewriter decides what is claimed and what is fetched.
    public struct Configuration: Sendable {
        /// Fetches and caches the images; its rewriter decides which URLs
        /// are images to claim (`nil` claims nothing).
        public var pipeline: ImagePipeline
        /// Decides, per client, between WebP, a transcode and the original.
        public var clientPolicy: ClientPolicy
        /// JPEG quality and PNG compression of transcodes.
        public var transcoder: Transcoder.Configuration
        /// Transcodes running at once. Default: the number of cores.
        public var transcodeConcurrency: Int
        /// Transcodes waiting for a core; beyond it a request is answered
        /// ``Delivery/Content/overloaded(retryAfterSeconds:)`` at once.
        /// Default: 4 per core, at least 8.
        public var transcodeQueueLimit: Int
        /// Images larger than this are not transcoded: the client gets the
        /// original. Default 16 MiB.
        public var maxTranscodeInputBytes: Int
        /// The `Retry-After` of an overloaded answer, in seconds. Default 1.
        public var retryAfterSeconds: Int
        /// The most bytes of finished transcodes kept in memory
        /// (``TranscodeCache``; also kept on the pipeline's ``DiskCache``
        /// when it has one); 0 keeps none. Default 8 MiB.
        public var transcodeCacheBytes: Int
        /// How the original is fetched when the core hands it over.
        public var relay: Relay
        /// Whether a client's `Save-Data: on` (WICG Save Data) is passed on:
        /// its image is fetched saving data (``ImageRequest/savesData``, under
        /// its own cache key) and every answer on the image path lists
        /// `Save-Data` in `Vary`. Default `false`: the field is not read and
        /// every client gets the full answer.
        public var forwardsSaveData: Bool
        /// Whether a client's sizing hints (`Sec-CH-Width`, or
        /// `Sec-CH-Viewport-Width` × `Sec-CH-DPR`, and their legacy names,
        /// read by ``ClientHints``) are passed on: its image is fetched with
        /// the width rounded up to a bucket (``ImageRequest/widthHint``, sent
        /// as `Sec-CH-Width`, under its own cache key per bucket), and every
        /// answer on the image path lists the hints in `Vary`. Default
        /// `false`: the hints are not read and every client gets the
        /// rule's width.
        public var forwardsClientHints: Bool
        /// What the link's conditions (``ImageBridge/update(_:)``, Low Data
        /// Mode in an app) do to the requests the bridge makes: at the
        /// policy's reduced tier each image is fetched as
        /// ``PrefetchPolicy/request(_:at:)`` makes it, saving data unless
        /// ``PrefetchPolicy/reducedSavesData`` is off — the same decision an
        /// app's native views take from ``CollectionPrefetcher``. Only the
        /// tier is read, never the prefetch settings. Default
        /// `PrefetchPolicy()`; with no conditions reported (a proxy), every
        /// request is at the full tier.
        public var linkPolicy: PrefetchPolicy

        /// Creates a configuration; every parameter after `pipeline` has the
        /// documented default.
        public init(
            pipeline: ImagePipeline, clientPolicy: ClientPolicy = .standard,
            transcoder: Transcoder.Configuration = Transcoder.Configuration()
        ) {
            self.pipeline = pipeline
            self.clientPolicy = clientPolicy
            self.transcoder = transcoder
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            transcodeConcurrency = cores
            transcodeQueueLimit = max(8, 4 * cores)
            maxTranscodeInputBytes = 16 << 20
            retryAfterSeconds = 1
            transcodeCacheBytes = TranscodeCache.defaultCapacityBytes
            forwardsSaveData = false
            forwardsClientHints = false
            linkPolicy = PrefetchPolicy()
            relay = Relay(
                limits: .init(
                    maxBodyBytes: pipeline.configuration.maxBodyBytes, timeout: pipeline.configuration.requestTimeout))
        }

        /// Checks the invariants: at least one transcode at once, a
        /// non-negative queue limit and `Retry-After`, a positive input cap
        /// and relay limits.
        /// - Throws: ``ImageBridgeError`` naming the field.
        public func validate() throws(ImageBridgeError) {
            guard transcodeConcurrency >= 1 else {
                throw .invalidConfiguration("transcodeConcurrency \(transcodeConcurrency) is below 1")
            }
            guard transcodeQueueLimit >= 0 else {
                throw .invalidConfiguration("transcodeQueueLimit \(transcodeQueueLimit) is negative")
            }
            guard maxTranscodeInputBytes > 0 else {
                throw .invalidConfiguration("maxTranscodeInputBytes \(maxTranscodeInputBytes) is not positive")
            }
            guard retryAfterSeconds >= 0 else {
                throw .invalidConfiguration("retryAfterSeconds \(retryAfterSeconds) is negative")
            }
            guard relay.limits.maxBodyBytes > 0, relay.limits.timeout > .zero else {
                throw .invalidConfiguration("relay.limits \(relay.limits) are not positive")
            }
        }
    }

    /// How the core fetches the original it hands over: its loader and bounds.
    public struct Relay: Sendable {
        /// Bounds on one relayed original.
        public struct Limits: Sendable, Equatable {
            /// The largest body relayed; a larger one is a `502`. Default:
            /// the pipeline's `maxBodyBytes`.
            public var maxBodyBytes: Int
            /// The time limit of the fetch. Default: the pipeline's `requestTimeout`.
            public var timeout: Duration
            /// The largest upstream header section relayed; a larger one is a `502`.
            public var fieldLimits: HTTPFieldList.Limits

            /// Creates limits; every parameter has the documented default.
            public init(
                maxBodyBytes: Int = 32 << 20, timeout: Duration = .seconds(30),
                fieldLimits: HTTPFieldList.Limits = .init()
            ) {
                self.maxBodyBytes = maxBodyBytes
                self.timeout = timeout
                self.fieldLimits = fieldLimits
            }
        }

        /// Fetches the original; `nil` for the pipeline's data loader.
        public var loader: (any DataLoading)?
        /// Its bounds.
        public var limits: Limits

        /// Creates the relay's settings.
        public init(loader: (any DataLoading)? = nil, limits: Limits = .init()) {
            self.loader = loader
            self.limits = limits
        }
    }
}

/// A bridge core that cannot be built as configured.
public enum ImageBridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field breaks an invariant; the text names it.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let text): "invalid image bridge configuration: \(text)"
        }
    }
}
