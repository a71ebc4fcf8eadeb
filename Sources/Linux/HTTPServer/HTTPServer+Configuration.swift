import Foundation

extension HTTPServer {
    /// How a server listens and what it accepts. Every field has a
    /// documented default; ``validate()`` checks the invariants and
    /// ``HTTPServer/start()`` calls it.
    public struct Configuration: Sendable, Equatable {
        /// The numeric IPv4 or IPv6 address to bind to; `127.0.0.1` by
        /// default, so nothing is reachable from outside unless asked.
        /// Host names are not resolved.
        public var host: String = "127.0.0.1"

        /// The TCP port; 0 (the default) lets the kernel choose, and
        /// ``HTTPServer/Endpoint`` tells which.
        public var port: Int = 0

        /// Worker threads, each running its own epoll loop; the number of
        /// cores by default. Handlers run on Swift's concurrency pool, not here.
        public var threadPoolSize: Int = ProcessInfo.processInfo.activeProcessorCount

        /// Threads of the server's own that run the handler's tasks: one
        /// per core by default, at least 2. Handlers run there rather than
        /// on Swift's global executor, so CPU-bound work elsewhere in the
        /// process never keeps a request waiting for a thread. Handlers
        /// should still await rather than block, and run long CPU-bound
        /// work on threads of its own (as `WebPBridge.WorkQueue` does).
        public var handlerThreads: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)

        /// Limits on what clients may send and hold.
        public var limits: Limits = Limits()

        /// Methods passed to the handler; others get `501 Not Implemented`.
        /// ``HTTPMethod/standard`` by default.
        public var acceptedMethods: Set<HTTPMethod> = HTTPMethod.standard

        /// How long ``HTTPServer/shutdown()`` lets in-flight requests
        /// finish before answering the rest with 503; 10 s by default.
        public var shutdownGracePeriod: Duration = .seconds(10)

        /// Creates the default configuration: `127.0.0.1`, a port the kernel
        /// chooses, a thread per core and the default ``Limits``.
        public init() {}

        /// Creates a configuration for an address and port.
        /// - Parameters:
        ///   - host: A numeric IPv4 or IPv6 address.
        ///   - port: A TCP port, or 0 for any free one.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Checks the invariants: a port in 0...65535, at least one thread,
        /// positive limits and timeouts, a header budget of at least 4 KiB.
        /// - Throws: ``HTTPServerError`` of kind `invalidConfiguration`,
        ///   naming the field.
        public func validate() throws(HTTPServerError) {
            func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(HTTPServerError) {
                if !condition { throw HTTPServerError(.invalidConfiguration, message()) }
            }
            try require((0...65_535).contains(port), "port \(port) is outside 0...65535")
            try require((1...1024).contains(threadPoolSize), "threadPoolSize \(threadPoolSize) is outside 1...1024")
            try require((1...1024).contains(handlerThreads), "handlerThreads \(handlerThreads) is outside 1...1024")
            try require(limits.maxHeaderBytes >= 4096, "limits.maxHeaderBytes \(limits.maxHeaderBytes) is below 4096")
            try require(limits.maxBodyBytes >= 0, "limits.maxBodyBytes \(limits.maxBodyBytes) is negative")
            try require(
                limits.maxBodyBytesInFlight >= 0,
                "limits.maxBodyBytesInFlight \(limits.maxBodyBytesInFlight) is negative")
            try require(
                limits.connectionTimeout >= .seconds(1),
                "limits.connectionTimeout \(limits.connectionTimeout) is below 1 second")
            try require(
                limits.requestReceiveTimeout > .zero,
                "limits.requestReceiveTimeout \(limits.requestReceiveTimeout) is not positive")
            try require(limits.maxConnections >= 1, "limits.maxConnections \(limits.maxConnections) is below 1")
            try require(
                limits.maxConnectionsPerClient.map { $0 >= 1 } ?? true,
                "limits.maxConnectionsPerClient \(limits.maxConnectionsPerClient ?? 0) is below 1")
            try require(
                limits.reservedDescriptors >= 0, "limits.reservedDescriptors \(limits.reservedDescriptors) is negative")
            try require(
                limits.crowdedIdleTimeout > .zero,
                "limits.crowdedIdleTimeout \(limits.crowdedIdleTimeout) is not positive")
            try require(
                limits.crowdedFraction > 0 && limits.crowdedFraction <= 1,
                "limits.crowdedFraction \(limits.crowdedFraction) is outside (0, 1]")
            try require(shutdownGracePeriod >= .zero, "shutdownGracePeriod is negative")
        }
    }
}

extension HTTPServer.Configuration {
    /// What clients may send and hold. Exceeding a limit never costs memory
    /// beyond it: the client gets a 4xx or is disconnected.
    public struct Limits: Sendable, Equatable {
        /// Per-connection memory for the request line and headers (and
        /// libmicrohttpd's read buffer); 32 KiB by default. A request whose
        /// head does not fit gets `431` (or `414` for a long target).
        ///
        /// About half of it is left for the head: 32 KiB admits a 14 KB
        /// `Cookie` but not 20 KB; 16 KiB admits 4 KB but not 8 KB.
        /// libmicrohttpd clears the whole budget for every request, so a
        /// smaller one is cheaper (measured: a 12-byte answer cost 22 µs of
        /// CPU at 32 KiB, 18 µs at 16 KiB); the default keeps room for
        /// browsers' large cookies.
        public var maxHeaderBytes: Int = 32 * 1024

        /// The largest request body kept; 1 MiB by default. A longer body
        /// gets `413`, sent before reading it when `Content-Length` says so.
        public var maxBodyBytes: Int = 1024 * 1024

        /// The request bodies all connections together may hold at once;
        /// 64 MiB by default. A request whose declared body would pass it
        /// gets `503` before its body is read (`413` when it could never
        /// fit); a chunked body that passes it is dropped and gets `503`.
        /// A body is charged from its head until its response is sent.
        public var maxBodyBytesInFlight: Int = 64 << 20

        /// A connection on which nothing is received or sent for this long
        /// is closed; 30 s by default, whole seconds, at least 1 s.
        public var connectionTimeout: Duration = .seconds(30)

        /// The whole request (line, headers and body) must arrive within
        /// this time from the connection's start or the end of the previous
        /// request, or the connection is closed; 30 s by default. This is
        /// what drops a client that sends a byte a second: each byte resets
        /// ``connectionTimeout``, but not this.
        public var requestReceiveTimeout: Duration = .seconds(30)

        /// Open connections across all clients; 10,000 by default, lowered
        /// at start to what the process's descriptor limit (`ulimit -n`)
        /// leaves after ``reservedDescriptors``. Beyond it new connections
        /// wait in the kernel's listen queue. libmicrohttpd's epoll loop has
        /// no limit of its own.
        public var maxConnections: Int = 10_000

        /// Descriptors kept for everything but client connections (upstream
        /// connections, cache files, logs) when ``maxConnections`` is fitted
        /// to `ulimit -n`; 256 by default.
        public var reservedDescriptors: Int = 256

        /// Open connections per client IP address; 256 by default, so one
        /// address cannot hold more than a small share of ``maxConnections``;
        /// connections beyond it are closed at once. `nil` for no per-client
        /// limit — behind a reverse proxy every client has the proxy's address.
        public var maxConnectionsPerClient: Int? = 256

        /// When the server holds ``crowdedFraction`` of its connection limit
        /// or more, a connection that has not delivered a complete request
        /// within this time is closed (instead of after
        /// ``requestReceiveTimeout`` or ``connectionTimeout``), so idle
        /// clients cannot keep others out; 2 s by default.
        public var crowdedIdleTimeout: Duration = .seconds(2)

        /// The share of the connection limit from which the server counts
        /// as crowded; 0.9 by default.
        public var crowdedFraction: Double = 0.9

        /// Creates the default limits.
        public init() {}
    }
}

extension HTTPServer.Configuration.Limits {
    /// ``maxConnections`` fitted to a descriptor limit: at most the limit
    /// less ``reservedDescriptors``, and at least 1.
    /// - Parameter descriptorLimit: The process's `RLIMIT_NOFILE` soft limit.
    public func connectionLimit(descriptorLimit: Int) -> Int {
        max(1, min(maxConnections, descriptorLimit - reservedDescriptors))
    }
}
