// Stand-in for Apple's Network framework (its Swift API, Network.swiftinterface), for
// `make portability` only: declarations without behaviour, exactly what the Apple-only files use,
// each transcribed from the Apple documentation page cited
// (https://developer.apple.com/documentation/network/...). Availability as Apple documents it; a
// Linux compiler does not enforce it (docs/platforms.md).
//
// Approximations, stated in docs/apple.md: NWPath and NWPathMonitor are declared without
// `Sendable` (the documentation lists no conformance for NWPathMonitor; for NWPath this is
// stricter than an SDK that marks it Sendable).
@_exported public import Dispatch

private func standIn() -> Never { fatalError("SDK stand-in: type-checking only") }

/// `struct NWPath`; https://developer.apple.com/documentation/network/nwpath
@available(iOS 12.0, macOS 10.14, *)
public struct NWPath: Equatable {
    /// `let status: NWPath.Status`; https://developer.apple.com/documentation/network/nwpath/status-swift.property
    public let status: NWPath.Status

    /// `var isExpensive: Bool { get }`; https://developer.apple.com/documentation/network/nwpath/isexpensive
    public var isExpensive: Bool { standIn() }

    /// `var isConstrained: Bool { get }` (iOS 13, macOS 10.15): Low Data Mode;
    /// https://developer.apple.com/documentation/network/nwpath/isconstrained
    @available(iOS 13.0, macOS 10.15, *)
    public var isConstrained: Bool { standIn() }

    /// `enum Status`; https://developer.apple.com/documentation/network/nwpath/status-swift.enum
    public enum Status: Equatable {
        /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum/satisfied
        case satisfied
        /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum/unsatisfied
        case unsatisfied
        /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum/requiresconnection
        case requiresConnection
    }

    public static func == (lhs: NWPath, rhs: NWPath) -> Bool { standIn() }
}

/// `final class NWPathMonitor`; https://developer.apple.com/documentation/network/nwpathmonitor
@available(iOS 12.0, macOS 10.14, *)
public final class NWPathMonitor {
    /// `init()`; https://developer.apple.com/documentation/network/nwpathmonitor/init()
    public init() { standIn() }

    /// `@preconcurrency final var pathUpdateHandler: (@Sendable (NWPath) -> Void)? { get set }`;
    /// https://developer.apple.com/documentation/network/nwpathmonitor/pathupdatehandler
    @preconcurrency public final var pathUpdateHandler: (@Sendable (NWPath) -> Void)? {
        get { standIn() }
        set { standIn() }
    }

    /// `final func start(queue: DispatchQueue)`;
    /// https://developer.apple.com/documentation/network/nwpathmonitor/start(queue:)
    public final func start(queue: DispatchQueue) { standIn() }

    /// `final func cancel()`; https://developer.apple.com/documentation/network/nwpathmonitor/cancel()
    public final func cancel() { standIn() }
}
