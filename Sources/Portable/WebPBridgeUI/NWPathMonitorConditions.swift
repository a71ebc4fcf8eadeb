// Apple-only (Network): compiled where `canImport(Network)` holds; on Linux this file is empty, and
// `make portability` type-checks it against Tests/StandIns/Network. A translator only: what the
// conditions mean for prefetching is PrefetchPolicy's.
#if canImport(Network)
    import Dispatch
    public import Network
    public import WebPBridge

    /// The system's network conditions from `NWPathMonitor`: each path
    /// update's `status`, `isExpensive` and `isConstrained`, for a
    /// ``CollectionPrefetcher`` to follow.
    ///
    /// ```swift
    /// Task { await prefetcher.follow(NWPathMonitorConditions()) }
    /// ```
    public struct NWPathMonitorConditions: NetworkConditionSource {
        public init() {}

        /// A new monitor per stream, started at once (it reports the current
        /// path first) and cancelled when the consumer stops iterating. Only
        /// the newest update is kept if the consumer falls behind.
        public func conditions() -> AsyncStream<NetworkConditions> {
            AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                // NWPathMonitor is not declared Sendable; after start it is
                // only touched by cancel(), here, once the stream has ended.
                nonisolated(unsafe) let monitor = NWPathMonitor()
                monitor.pathUpdateHandler = { path in continuation.yield(NetworkConditions(path)) }
                continuation.onTermination = { _ in monitor.cancel() }
                monitor.start(queue: DispatchQueue(label: "WebPBridgeUI.NWPathMonitorConditions"))
            }
        }
    }

    extension NetworkConditions {
        /// The conditions `path` reports.
        public init(_ path: NWPath) {
            let status: Status =
                switch path.status {
                case .satisfied: .satisfied
                case .requiresConnection: .requiresConnection
                case .unsatisfied: .unsatisfied
                @unknown default: .unsatisfied
                }
            self.init(status: status, isExpensive: path.isExpensive, isConstrained: path.isConstrained)
        }
    }
#endif
