// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    extension CurlDataLoader {
        /// How a ``CurlDataLoader`` connects and what it keeps for reuse.
        /// Per-request limits (timeout, body size) are in
        /// ``DataRequest``.
        public struct Configuration: Sendable, Equatable {
            /// The longest a connection may take to establish, capped by the
            /// request's own timeout; 10 s by default.
            public var connectTimeout: Duration = .seconds(10)
            /// Idle keep-alive connections kept for reuse (libcurl's connection
            /// cache); 16 by default. Busier moments open more connections and
            /// close the extra ones when done.
            public var maxIdleConnections: Int = 16
            /// Finished easy handles kept for the next requests instead of
            /// being freed and allocated again; 16 by default.
            public var maxPooledHandles: Int = 16
            /// The `User-Agent` sent when a request sets none; `nil` sends none.
            public var userAgent: String? = "WebPBridge"

            /// Creates the default configuration.
            public init() {}
        }
    }
#endif
