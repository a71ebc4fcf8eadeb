/// An HTTP/1.1 server on libmicrohttpd that answers through an async
/// ``HTTPHandler``.
///
/// ```swift
/// let server = HTTPServer(handler: ClosureHTTPHandler { request in
///     .text(.ok, "hello \(request.path)")
/// }, requestLog: { print($0) })
/// let endpoint = try await server.start()   // http://127.0.0.1:<port>
/// // …
/// await server.shutdown()
/// ```
///
/// libmicrohttpd runs an epoll loop per worker thread
/// (``Configuration/threadPoolSize``). Each complete request is first
/// offered to the handler's ``HTTPHandler/immediateResponse(to:)`` on that
/// thread: a response at hand (a file, a cached body, a `304`) is sent at
/// once, at the C library's speed. Otherwise the connection is suspended,
/// the handler runs in a Swift task and the connection is resumed with the
/// response, so a slow handler holds neither a thread nor other clients;
/// connections are kept alive between requests either way.
///
/// The actor guards the lifecycle only — idle, running, stopping, stopped —
/// so ``start()`` and ``shutdown()`` may be called from anywhere, and
/// ``shutdown()`` any number of times. A server is started once. Call
/// ``shutdown()`` before dropping a running server; dropping it stops the
/// daemon at once, answering waiting requests with 503.
public actor HTTPServer {
    private enum State {
        case idle
        case running(MHDDaemon, watchdog: Task<Void, Never>)
        case stopping(Task<Void, Never>)
        case stopped
    }

    /// The configuration the server was created with.
    public nonisolated let configuration: Configuration
    private let core: HTTPServerCore
    private var state = State.idle
    private var boundEndpoint: Endpoint?

    /// Creates a server; it listens once ``start()`` is called.
    /// - Parameters:
    ///   - configuration: Address, port, threads and limits.
    ///   - handler: Answers every request that passes the limits.
    ///   - metrics: Where the server counts what it refused to send
    ///     (``refusedResponsesFamily``); `nil` counts nowhere.
    ///   - requestLog: Called once per finished request, on a server thread;
    ///     keep it short (printing a line is fine).
    public init(
        configuration: Configuration = Configuration(), handler: some HTTPHandler, metrics: MetricsRegistry? = nil,
        requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.core = HTTPServerCore(
            handler: handler, configuration: configuration, metrics: metrics, requestLog: requestLog)
    }

    /// `webpbridge_http_refused_responses_total`: handler responses replaced
    /// by a 500 because libmicrohttpd refused one of their header fields (a
    /// CR or LF in a value, a space in a name). Each such 500 names the
    /// field in its body and appears in the request log.
    public static let refusedResponsesFamily = MetricsRegistry.Family(
        "webpbridge_http_refused_responses_total",
        help: "Responses replaced by a 500 because the HTTP library refused one of their header fields.")

    /// Creates a server that answers with a closure.
    /// - Parameters:
    ///   - configuration: Address, port, threads and limits.
    ///   - requestLog: Called once per finished request.
    ///   - handle: Answers every request that passes the limits.
    public init(
        configuration: Configuration = Configuration(),
        requestLog: (@Sendable (HTTPRequestLog) -> Void)? = nil,
        handle: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.init(configuration: configuration, handler: ClosureHTTPHandler(handle), requestLog: requestLog)
    }

    deinit {
        if case .running(let daemon, let watchdog) = state {
            watchdog.cancel()
            core.closeSuspensions()
            daemon.stop()
        }
    }

    /// Binds to the configured address and starts serving.
    /// - Returns: Where the server listens, with the real port when 0 was
    ///   configured.
    /// - Throws: ``HTTPServerError``: an invalid configuration or address,
    ///   the port in use, or a server that was already started.
    @discardableResult
    public func start() throws(HTTPServerError) -> Endpoint {
        switch state {
        case .idle: break
        case .running: throw HTTPServerError(.alreadyStarted, "the HTTP server is already running")
        case .stopping, .stopped:
            throw HTTPServerError(.stopped, "the HTTP server was shut down; create a new one to serve again")
        }
        try configuration.validate()
        let daemon = try MHDDaemon(core: core)
        state = .running(
            daemon,
            watchdog: core.watchdog.startSweeping(
                on: core.handlerThreads, also: { [core] in core.cancelAbandonedHandlers() }))
        let endpoint = Endpoint(host: configuration.host, port: daemon.port)
        boundEndpoint = endpoint
        return endpoint
    }

    /// Where the server listens; `nil` before ``start()``.
    public var endpoint: Endpoint? { boundEndpoint }

    /// The number of connections now open; 0 when not running.
    public var openConnectionCount: Int {
        if case .running(let daemon, _) = state { daemon.openConnections } else { 0 }
    }

    /// Returns once the number of connections open (started and not yet
    /// closed, as libmicrohttpd reports them to the server) satisfies
    /// `condition`: checked now and woken by each connection opening or
    /// closing, never by polling. Returns early when the task is cancelled.
    package nonisolated func waitUntilOpenConnections(_ condition: @escaping @Sendable (Int) -> Bool) async {
        await core.watchdog.waitUntilOpenCount(condition)
    }

    /// Returns once ``shutdown()`` has begun draining: no new connection is
    /// accepted and responses ask clients to close. A test seam, for a
    /// handler that must still be running when shutdown starts.
    package nonisolated func waitUntilDraining() async {
        await core.waitUntilDraining()
    }

    /// Stops the server gracefully: closes new connections as they are
    /// accepted (``MHDDaemon`` says why it does not quiesce), lets
    /// requests already received in full finish for up to
    /// ``Configuration/shutdownGracePeriod`` (their responses ask clients to
    /// close), answers those still waiting for the handler with 503, then
    /// closes every connection, cutting off requests still arriving and
    /// idle keep-alive connections. Returns when the server is stopped; a
    /// second call, concurrent or later, waits for the first.
    public func shutdown() async {
        switch state {
        case .idle:
            state = .stopped
        case .stopped:
            return
        case .stopping(let stopping):
            await stopping.value
        case .running(let daemon, let watchdog):
            let core = self.core
            let grace = configuration.shutdownGracePeriod
            let stopping = Task {
                core.beginDraining()
                await Self.waitForInFlightRequests(core, upTo: grace)
                core.closeSuspensions()
                // Let the 503s just queued reach their clients.
                await Self.waitForInFlightRequests(core, upTo: .seconds(1))
                daemon.stop()
                watchdog.cancel()
            }
            state = .stopping(stopping)
            await stopping.value
            state = .stopped
        }
    }

    /// Returns once no request is in flight (woken by the last one
    /// finishing) or `limit` has passed, whichever comes first.
    private static func waitForInFlightRequests(_ core: HTTPServerCore, upTo limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await core.waitUntilNoRequestInFlight() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}
