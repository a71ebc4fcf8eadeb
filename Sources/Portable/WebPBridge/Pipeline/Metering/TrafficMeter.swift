/// Counts where image bytes came from: the network (per host and per
/// format), the caches, variants versus originals, and fallbacks — the
/// figures that show what WebP saved.
///
/// Thread-safe: one `Lock`; recording is a few dictionary updates.
public final class TrafficMeter: Sendable {
    /// A point-in-time copy of every counter.
    public struct Snapshot: Sendable, Equatable {
        /// Body bytes received from the network.
        public var networkBytes = 0
        /// Network body bytes by host: at most ``TrafficMeter/maxHosts``
        /// hosts by name (the first seen); the bytes of any other host, or
        /// of a name longer than 255 bytes, are counted under
        /// ``TrafficMeter/otherHosts``.
        public var networkBytesByHost: [String: Int] = [:]
        /// Network body bytes by sniffed format (`webp`, `jpeg`, …, or `other`;
        /// `not-modified` for 304s, `redirect` for redirect responses, followed
        /// or not).
        public var networkBytesByFormat: [String: Int] = [:]
        /// Network requests made (including revalidations and fallbacks).
        public var networkRequests = 0
        /// Images served from the memory cache.
        public var memoryHits = 0
        /// Disk cache hits and the bytes they served.
        public var diskHits = 0
        public var diskBytes = 0
        /// Stale entries revalidated with a 304.
        public var revalidations = 0
        /// Images delivered from a WebP variant URL, and from an original URL.
        public var variants = 0
        public var originals = 0
        /// Times a variant failed and the original was fetched instead.
        public var fallbacks = 0
        /// Variants fetched that turned out larger than the cached original:
        /// the original is asked for instead for a while.
        public var outweighingVariants = 0

        public init() {}
    }

    private let state = Lock(Snapshot())

    /// 256: the most hosts counted by name, so that a forward proxy's
    /// wildcard rule cannot grow the table without bound.
    public static let maxHosts = 256
    /// `(other)`: the entry counting every host past ``maxHosts`` (not a
    /// valid host name, so it cannot collide with one).
    public static let otherHosts = "(other)"

    public init() {}

    /// Everything counted so far.
    public var snapshot: Snapshot { state.withLock { $0 } }

    func recordNetwork(host: String, format: String, bytes: Int) {
        state.withLock { counters in
            counters.networkRequests += 1
            counters.networkBytes += bytes
            let named =
                counters.networkBytesByHost[host] != nil
                || (host.utf8.count <= 255 && counters.networkBytesByHost.count < Self.maxHosts)
            counters.networkBytesByHost[named ? host : Self.otherHosts, default: 0] += bytes
            counters.networkBytesByFormat[format, default: 0] += bytes
        }
    }

    func recordMemoryHit() { state.withLock { $0.memoryHits += 1 } }

    func recordDiskHit(bytes: Int) {
        state.withLock { counters in
            counters.diskHits += 1
            counters.diskBytes += bytes
        }
    }

    func recordRevalidation() { state.withLock { $0.revalidations += 1 } }

    func recordDelivery(variant: Bool) {
        state.withLock { counters in
            if variant { counters.variants += 1 } else { counters.originals += 1 }
        }
    }

    func recordFallback() { state.withLock { $0.fallbacks += 1 } }

    func recordOutweighingVariant() { state.withLock { $0.outweighingVariants += 1 } }
}
