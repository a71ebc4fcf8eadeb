/// Why an ``HTTPServer`` could not start.
///
/// Compare ``kind`` with the static kinds (`error.kind == .addressInUse`);
/// new kinds may be added without breaking callers.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category of a start failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidAddress, addressInUse, addressNotAvailable, invalidConfiguration
            case alreadyStarted, stopped, startFailed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The host is not a numeric IPv4 or IPv6 address.
        public static let invalidAddress = Kind(.invalidAddress)
        /// Another socket already listens on the address and port.
        public static let addressInUse = Kind(.addressInUse)
        /// The address does not belong to this machine, or the port is privileged.
        public static let addressNotAvailable = Kind(.addressNotAvailable)
        /// A configuration field breaks an invariant.
        public static let invalidConfiguration = Kind(.invalidConfiguration)
        /// ``HTTPServer/start()`` was called on a running server.
        public static let alreadyStarted = Kind(.alreadyStarted)
        /// ``HTTPServer/start()`` was called after ``HTTPServer/shutdown()``.
        public static let stopped = Kind(.stopped)
        /// libmicrohttpd refused to start for another reason.
        public static let startFailed = Kind(.startFailed)

        /// The kind's name, e.g. `addressInUse`.
        public var description: String { base.rawValue }
    }

    /// The category, for code that reacts to it.
    public let kind: Kind

    /// A readable explanation that says what to do.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
