/// The network as the system reports it (on Apple platforms, an
/// `NWPath`'s `status`, `isExpensive` and `isConstrained`), which a
/// ``PrefetchPolicy`` reads.
public struct NetworkConditions: Sendable, Hashable, CustomStringConvertible {
    /// Whether data can flow (`NWPath.Status`).
    public enum Status: Sendable, Hashable {
        /// A usable route exists.
        case satisfied
        /// No usable route: offline.
        case unsatisfied
        /// Not connected now, but a connection can be brought up on demand
        /// (e.g. a VPN on demand): offline until something connects.
        case requiresConnection
    }

    public var status: Status
    /// Cellular or a personal hotspot: data the user may pay for.
    public var isExpensive: Bool
    /// Low Data Mode: the user asked apps to use less data.
    public var isConstrained: Bool

    public init(status: Status, isExpensive: Bool, isConstrained: Bool) {
        self.status = status
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// Wi-Fi or Ethernet, no Low Data Mode.
    public static let unmetered = NetworkConditions(status: .satisfied, isExpensive: false, isConstrained: false)
    /// Cellular or a hotspot, no Low Data Mode.
    public static let expensive = NetworkConditions(status: .satisfied, isExpensive: true, isConstrained: false)
    /// Wi-Fi or Ethernet in Low Data Mode.
    public static let lowData = NetworkConditions(status: .satisfied, isExpensive: false, isConstrained: true)
    /// No route.
    public static let offline = NetworkConditions(status: .unsatisfied, isExpensive: false, isConstrained: false)

    public var description: String {
        switch status {
        case .satisfied:
            let kind = isExpensive ? "expensive" : "unmetered"
            return isConstrained ? "\(kind), Low Data Mode" : kind
        case .unsatisfied: return "offline"
        case .requiresConnection: return "offline (requires connection)"
        }
    }
}

/// Where network conditions come from: the system on Apple platforms
/// (`NWPathMonitorConditions` in WebPBridgeUI), a script in tests.
public protocol NetworkConditionSource: Sendable {
    /// The current conditions first (when known), then each change, until
    /// the consumer stops iterating.
    func conditions() -> AsyncStream<NetworkConditions>
}
