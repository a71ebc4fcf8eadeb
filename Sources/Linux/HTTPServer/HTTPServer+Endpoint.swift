extension HTTPServer {
    /// Where a started server listens.
    public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        /// The configured numeric address, e.g. `127.0.0.1` or `::1`.
        public let host: String
        /// The bound port (the real one when 0 was configured).
        public let port: Int

        /// Creates an endpoint.
        /// - Parameters:
        ///   - host: A numeric address.
        ///   - port: A TCP port.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// `http://127.0.0.1:8081` (IPv6 hosts in brackets), without a
        /// trailing slash.
        public var url: String {
            let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            return bare.contains(":") ? "http://[\(bare)]:\(port)" : "http://\(bare):\(port)"
        }

        /// Same as ``url``.
        public var description: String { url }
    }
}
