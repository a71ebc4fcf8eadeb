public import Foundation
public import WebPBridge

extension BridgeProxy {
    /// What a bridge is built from, with documented defaults. A `Sendable`
    /// value; ``BridgeProxy/init(configuration:)`` checks it with
    /// ``validate()``.
    public struct Configuration: Sendable {
        /// Where requests go.
        public enum Mode: Sendable, Equatable {
            /// Every request maps onto `upstream` (scheme, host, port and base
            /// path, followed by the request target): the bridge stands in
            /// front of one site, and may talk HTTPS to it. Targets with dot
            /// segments get 400; redirects are followed only within the same
            /// scheme, host, port and base path.
            case reverse(upstream: URL)
            /// Absolute-form requests (`GET http://host/path`, as a browser
            /// configured with a proxy sends them), only for hosts that a
            /// rewrite rule names or that `allowedHosts` lists (compared
            /// exactly, ignoring ASCII case), and only on the scheme's default
            /// port (80 for `http`, 443 for `https`) unless an entry names
            /// another as `host:port`. Anything else gets 403, and a redirect
            /// there is not followed: the bridge is never an open proxy.
            case forward(allowedHosts: Set<String>)

            /// Whether `entry` is a valid element of
            /// ``forward(allowedHosts:)``: `host`, `host:port` or `[v6]:port`,
            /// a port in 1–65535, no path, user info or wildcard.
            public static func isAllowedHostEntry(_ entry: String) -> Bool {
                ForwardAllowList.parse(entry) != nil
            }

            /// The redirect policy the bridge's pipeline must be built with:
            /// hops within the same rules that route requests (the upstream in
            /// reverse mode; the allowed hosts and ports in forward mode), at
            /// most 5. ``BridgeProxy/init(configuration:)`` refuses a pipeline
            /// with any other policy.
            /// - Parameter rewriter: The bridge's rewriter (its rules' hosts
            ///   are allowed in forward mode); the pipeline's, by default.
            public func redirectPolicy(rewriter: Rewriter?) -> RedirectPolicy {
                RequestRouter(mode: self, rewriter: rewriter).redirectPolicy
            }
        }

        /// Where requests go.
        public var mode: Mode
        /// Loads matched images: rewrites to the WebP variant, caches under the
        /// rewritten URL, falls back to the original. Shared with any other
        /// bridge in the process, so nothing is downloaded twice. Its
        /// rewriter is the bridge's one rewriter: it decides which URLs are
        /// images to claim (the bridge claims exactly what the pipeline
        /// rewrites; `nil` claims nothing: a plain proxy), which hosts forward
        /// mode allows, and what `--rewrite-html` names.
        public var pipeline: ImagePipeline
        /// Decides, per client, between WebP, a transcode and passing through.
        /// Default: ``ClientPolicy/standard``.
        public var clientPolicy: ClientPolicy
        /// Fetches everything that is not a claimed image (HTML, CSS, JS,
        /// GIFs, other methods). Default: the pipeline's data loader.
        public var passthroughLoader: any DataLoading
        /// Sizes and times.
        public var limits: Limits
        /// Whether HTML pages that pass through name the image variants
        /// (`proxy --rewrite-html`): a `200` `text/html` page, not encoded
        /// and not `no-transform`, goes through an `HTMLRewriter` with the
        /// bridge's rules when ``ImageBridge/rewritesPage(_:)`` says the
        /// client's images get variants; every `text/html` answer then
        /// carries the policy's `Vary`. Default `false`: pages pass through
        /// untouched.
        public var rewritesHTML: Bool
        /// The one memory budget the bridge's caches are shares of (see
        /// ``BridgeProxy/MemoryBudget``): the bridge bounds its hit memo by
        /// it; whoever builds the pipeline
        /// sizes its data and negative caches by the same budget. Default
        /// 256 MiB.
        public var memoryBudget: MemoryBudget
        /// JPEG quality and PNG compression of transcodes. Default: JPEG q90,
        /// above a WebP's q80 by SSIM.
        public var transcoder: Transcoder.Configuration
        /// Transcodes running at once. Default: the number of cores.
        public var transcodeConcurrency: Int
        /// Transcodes waiting for a core; beyond it a request gets 503 with
        /// `Retry-After` at once rather than piling up memory and latency.
        /// Default: 4 per core, at least 8.
        public var transcodeQueueLimit: Int
        /// The `Retry-After` of a 503, in seconds. Default 1.
        public var retryAfterSeconds: Int
        /// Whether finished transcodes are kept (``ImageDelivery/TranscodeCache``:
        /// the budget's ``MemoryBudget/transcodeCacheBytes`` in memory, and the
        /// pipeline's disk cache when it has one), so a repeated request from
        /// a client that cannot show WebP is not transcoded again. Default
        /// `true`; `false` transcodes every request, for measuring it.
        public var keepsTranscodes: Bool
        /// Whether a client's `Save-Data: on` is passed on to the image
        /// upstream (`proxy --save-data`): the image is fetched with it,
        /// under its own cache key, and every answer on the image path lists
        /// `Save-Data` in `Vary` (``ImageDelivery/ImageBridge/Configuration/forwardsSaveData``).
        /// Default `false`.
        public var forwardsSaveData: Bool
        /// Whether a client's sizing hints are passed on to the image
        /// upstream as a width bucket (`proxy --client-hints`): the image is
        /// fetched with `Sec-CH-Width`, under its own cache key per bucket,
        /// and every answer on the image path lists the hints in `Vary`
        /// (``ImageDelivery/ImageBridge/Configuration/forwardsClientHints``).
        /// Default `false`.
        public var forwardsClientHints: Bool
        /// The bridge's name in `Via` (`Via: 1.1 webp-bridge`). A request that
        /// already carries it has looped back and gets 508. Two bridges in a
        /// chain need different tokens. Default `webp-bridge`.
        public var viaToken: String
        /// Receives one line for each upstream failure and each redirect the
        /// bridge did not follow, with what the client is not told (the URL,
        /// the loader's message); credentials in URLs are replaced by `***`
        /// and control bytes escaped. Clients get a fixed 502 text. Default
        /// `nil`: not logged.
        public var log: (@Sendable (String) -> Void)?

        /// Creates a configuration; every parameter after `pipeline` has the
        /// documented default.
        /// - Parameters:
        ///   - mode: Reverse (one upstream) or forward (allowed hosts).
        ///   - pipeline: The image pipeline; its rewriter decides what is an image.
        ///   - clientPolicy: `nil` for ``ClientPolicy/standard``.
        ///   - passthroughLoader: `nil` for the pipeline's data loader.
        ///   - limits: Sizes and times.
        public init(
            mode: Mode, pipeline: ImagePipeline, clientPolicy: ClientPolicy? = nil,
            passthroughLoader: (any DataLoading)? = nil, limits: Limits = Limits()
        ) {
            self.mode = mode
            self.pipeline = pipeline
            self.clientPolicy = clientPolicy ?? .standard
            self.passthroughLoader = passthroughLoader ?? pipeline.configuration.dataLoader
            self.limits = limits
            rewritesHTML = false
            memoryBudget = MemoryBudget()
            transcoder = Transcoder.Configuration()
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            transcodeConcurrency = cores
            transcodeQueueLimit = max(8, 4 * cores)
            retryAfterSeconds = 1
            keepsTranscodes = true
            forwardsSaveData = false
            forwardsClientHints = false
            viaToken = "webp-bridge"
            log = nil
        }

        /// Checks the invariants: an `http`/`https` upstream with a host and
        /// no query or fragment, allowed hosts as `host` or `host:port`
        /// (without `/`, `@` or spaces; ports 1–65535), a pipeline whose
        /// ``ImagePipeline/Configuration/redirectPolicy`` is the mode's
        /// (``Mode/redirectPolicy(rewriter:)``), positive limits, a `Via`
        /// token without spaces, commas or brackets.
        /// - Throws: ``BridgeProxyError`` naming the field.
        public func validate() throws(BridgeProxyError) {
            switch mode {
            case .reverse(let upstream):
                let scheme = upstream.scheme?.lowercased()
                guard scheme == "http" || scheme == "https", let host = upstream.host, !host.isEmpty else {
                    throw .invalidConfiguration(
                        "upstream '\(upstream.absoluteString)' is not an http:// or https:// URL with a host")
                }
                guard upstream.query == nil, upstream.fragment == nil else {
                    throw .invalidConfiguration(
                        "upstream '\(upstream.absoluteString)' has a query or fragment;"
                            + " give scheme, host, port and path only")
                }
            case .forward(let hosts):
                for host in hosts where ForwardAllowList.parse(host) == nil {
                    throw .invalidConfiguration("allowed host '\(host)' is not a host name or host:port")
                }
            }
            let expected = mode.redirectPolicy(rewriter: pipeline.configuration.rewriter)
            let actual = pipeline.configuration.redirectPolicy
            guard actual.name == expected.name else {
                throw .invalidConfiguration(
                    "the pipeline follows redirects to \(actual.name), not only to \(expected.name); build it "
                        + "with redirectPolicy: mode.redirectPolicy(rewriter:)")
            }
            try limits.validate()
            do {
                try imageBridgeConfiguration.validate()
            } catch {
                switch error {
                case .invalidConfiguration(let text): throw .invalidConfiguration(text)
                }
            }
            guard !viaToken.isEmpty, !viaToken.contains(where: { " \t,()\r\n".contains($0) }) else {
                throw .invalidConfiguration(
                    "viaToken '\(viaToken)' is not a single token (no spaces, commas or brackets)")
            }
        }
    }
}

extension BridgeProxy.Configuration {
    /// The image path's part of the configuration.
    var imageBridgeConfiguration: ImageBridge.Configuration {
        var image = ImageBridge.Configuration(pipeline: pipeline, clientPolicy: clientPolicy, transcoder: transcoder)
        image.relay = ImageBridge.Relay(
            loader: passthroughLoader,
            limits: .init(
                maxBodyBytes: limits.maxPassthroughBodyBytes, timeout: limits.upstreamTimeout,
                fieldLimits: limits.upstreamFieldLimits))
        image.transcodeConcurrency = transcodeConcurrency
        image.transcodeQueueLimit = transcodeQueueLimit
        image.maxTranscodeInputBytes = limits.maxTranscodeInputBytes
        image.retryAfterSeconds = retryAfterSeconds
        image.transcodeCacheBytes = keepsTranscodes ? memoryBudget.transcodeCacheBytes : 0
        image.forwardsSaveData = forwardsSaveData
        image.forwardsClientHints = forwardsClientHints
        return image
    }

    /// Bounds on sizes and times, with documented defaults.
    public struct Limits: Sendable, Equatable {
        /// Images larger than this are not transcoded: the original passes
        /// through untransformed. Default 16 MiB.
        public var maxTranscodeInputBytes: Int
        /// The largest passthrough body; a larger one gives 502 (the bridge
        /// holds a body in memory). Default 64 MiB.
        public var maxPassthroughBodyBytes: Int
        /// The time limit of each upstream request that passes through.
        /// Default 30 s. (Image fetches use the pipeline's `requestTimeout`.)
        public var upstreamTimeout: Duration
        /// The largest upstream header section passed through: a larger one
        /// gives 502 and is never relayed, so the response head always fits
        /// the server's per-connection memory. Default 100 fields, 16 KiB
        /// (image fetches hold upstreams to the same default).
        public var upstreamFieldLimits: HTTPFieldList.Limits
        /// Pages rewritten at once under `--rewrite-html`, off the server's
        /// handler threads. Default: half the cores, at least 1.
        public var pageRewriteConcurrency: Int
        /// Page rewrites waiting; beyond, 503 with `Retry-After`. Default:
        /// 4 per rewrite slot.
        public var pageRewriteQueueLimit: Int
        /// The `Retry-After` of a 503 for a full page-rewrite queue. Default 1.
        public var pageRewriteRetryAfterSeconds: Int

        /// Creates limits; every parameter has the documented default.
        /// - Parameters:
        ///   - maxTranscodeInputBytes: Largest image transcoded.
        ///   - maxPassthroughBodyBytes: Largest body passed through.
        ///   - upstreamTimeout: Time limit of a passthrough request.
        ///   - upstreamFieldLimits: Largest upstream header section relayed.
        public init(
            maxTranscodeInputBytes: Int = 16 << 20, maxPassthroughBodyBytes: Int = 64 << 20,
            upstreamTimeout: Duration = .seconds(30), upstreamFieldLimits: HTTPFieldList.Limits = .init()
        ) {
            self.maxTranscodeInputBytes = maxTranscodeInputBytes
            self.maxPassthroughBodyBytes = maxPassthroughBodyBytes
            self.upstreamTimeout = upstreamTimeout
            self.upstreamFieldLimits = upstreamFieldLimits
            pageRewriteConcurrency = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
            pageRewriteQueueLimit = 4 * pageRewriteConcurrency
            pageRewriteRetryAfterSeconds = 1
        }

        func validate() throws(BridgeProxyError) {
            guard maxPassthroughBodyBytes > 0 else {
                throw .invalidConfiguration("limits.maxPassthroughBodyBytes \(maxPassthroughBodyBytes) is not positive")
            }
            guard upstreamFieldLimits.maxCount > 0, upstreamFieldLimits.maxBytes > 0 else {
                throw .invalidConfiguration("limits.upstreamFieldLimits \(upstreamFieldLimits) is not positive")
            }
            guard pageRewriteConcurrency >= 1, pageRewriteQueueLimit >= 0, pageRewriteRetryAfterSeconds >= 0 else {
                throw .invalidConfiguration(
                    "limits.pageRewrite: concurrency \(pageRewriteConcurrency) below 1, or a negative queue limit "
                        + "(\(pageRewriteQueueLimit)) or Retry-After (\(pageRewriteRetryAfterSeconds))")
            }
            guard upstreamTimeout > .zero else {
                throw .invalidConfiguration("limits.upstreamTimeout \(upstreamTimeout) is not positive")
            }
        }
    }
}
