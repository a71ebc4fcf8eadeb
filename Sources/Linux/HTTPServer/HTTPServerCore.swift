internal import CMicroHTTPD
import Foundation
import Synchronization
import WebPBridge

/// What libmicrohttpd's callbacks reach through their context pointer: the
/// handler, the limits, and the requests now waiting for the handler.
///
/// libmicrohttpd calls in on its worker threads; the handler answers from
/// Swift tasks. Only the set of suspended requests is shared between them,
/// behind `suspensions`' lock.
final class HTTPServerCore: Sendable {
    /// A request whose handler runs in a task while its connection is suspended.
    private struct Waiting {
        var connection: SuspendedConnection
        var context: RequestContext
        /// The handler's task, once started; cancelled when the client goes away.
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private struct Suspensions {
        var waiting: [ObjectIdentifier: Waiting] = [:]
        /// Set once the server is about to stop: no request may be suspended
        /// any more (libmicrohttpd must not be stopped with suspended
        /// connections).
        var closed = false
    }

    let handler: any HTTPHandler
    let configuration: HTTPServer.Configuration
    let requestLog: (@Sendable (HTTPRequestLog) -> Void)?
    /// Where refused responses are counted, if anywhere.
    let metrics: MetricsRegistry?
    let watchdog: ConnectionWatchdog
    let bodyBudget: BodyBudget
    /// Where the handler's tasks run (see
    /// ``HTTPServer/Configuration/handlerThreads``).
    let handlerThreads: WorkerThreads

    private let suspensions = Lock(Suspensions())
    // Atomics, not locks: both are touched by every request.
    private let requestsInFlight = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    /// Shutdown waiting for the last request in flight: woken when one
    /// finishes while draining (never touched otherwise).
    private let drainWatch = Lock(DrainWatch())
    private let startupMessages = Lock<[String]>([])
    private let collectingStartupMessages = Lock<Bool>(true)

    init(
        handler: any HTTPHandler, configuration: HTTPServer.Configuration, metrics: MetricsRegistry?,
        requestLog: (@Sendable (HTTPRequestLog) -> Void)?
    ) {
        self.handler = handler
        self.configuration = configuration
        self.requestLog = requestLog
        self.metrics = metrics
        // At zero from the start, so a scrape sees the family before any refusal.
        metrics?.increment(HTTPServer.refusedResponsesFamily, by: 0)
        let limits = configuration.limits
        bodyBudget = BodyBudget(limit: limits.maxBodyBytesInFlight)
        handlerThreads = WorkerThreads(limit: max(1, configuration.handlerThreads), name: "webp.http")
        connectionLimit = limits.connectionLimit(descriptorLimit: Self.descriptorLimit())
        self.watchdog = ConnectionWatchdog(
            receiveTimeout: limits.requestReceiveTimeout,
            crowdedCount: max(1, Int((Double(connectionLimit) * limits.crowdedFraction).rounded(.up))),
            crowdedIdleTimeout: limits.crowdedIdleTimeout)
    }

    /// ``HTTPServer/Configuration/Limits-swift.struct/maxConnections`` fitted
    /// to the descriptor limit: what libmicrohttpd is told.
    let connectionLimit: Int

    /// The soft `RLIMIT_NOFILE`, or `Int.max` when unlimited or unknown.
    private static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return .max }
        return Int(clamping: limit.rlim_cur)
    }

    /// Requests received in full (or refused) whose response is not yet
    /// sent: what a graceful shutdown waits for. Requests still arriving
    /// are not counted; stopping cuts them off.
    var inFlightCount: Int { requestsInFlight.load(ordering: .sequentiallyConsistent) }

    // MARK: - Connections

    func connectionStarted(_ connection: OpaquePointer) -> WatchedConnection {
        watchdog.connectionStarted(
            socket: webpbridge_connection_fd(connection),
            remoteAddress: webpbridge_connection_client_address(connection).flatMap(SocketAddress.text(of:)))
    }

    func connectionClosed(_ connection: WatchedConnection) {
        watchdog.connectionClosed(connection)
    }

    // MARK: - Requests

    /// The request line arrived: a new context, kept until `requestCompleted`.
    func requestStarted(
        target: String, targetIsUTF8: Bool, targetEnd: Int, connection: OpaquePointer
    ) -> RequestContext {
        let watched = webpbridge_connection_socket_context(connection).map {
            Unmanaged<WatchedConnection>.fromOpaque($0).takeUnretainedValue()
        }
        return RequestContext(target: target, targetIsUTF8: targetIsUTF8, targetEnd: targetEnd, connection: watched)
    }

    /// The access handler: called when the head arrived, for each body chunk,
    /// and once more when the request is complete. Answering before the last
    /// call would make libmicrohttpd close the connection, so normal answers
    /// wait for it; only refusals (501, 413) are sent early.
    /// - Parameter method: libmicrohttpd's method, made a string only with the head.
    func receive(
        _ context: RequestContext, connection: OpaquePointer, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        switch context.phase {
        case .awaitingHead:
            return receiveHead(
                context, connection: connection, method: method.map { String(cString: $0) } ?? "", version: version)
        case .receivingBody where uploadSize.pointee > 0:
            receiveBodyChunk(context, upload: upload, size: uploadSize.pointee)
            uploadSize.pointee = 0
            return .YES
        case .receivingBody:
            if context.bodyTooLarge { return answerNow(.contentTooLarge(limit: maxBodyBytes), context, connection) }
            if context.bodyOverBudget { return answerNow(.bodiesOverBudget, context, connection) }
            return dispatch(context, connection: connection)
        case .dispatched:
            // Called again only when a resumed request has no response
            // (creating it failed): close the connection rather than spin.
            return .NO
        }
    }

    private var maxBodyBytes: Int { configuration.limits.maxBodyBytes }

    /// Checks the head (``MHDRequestHead``, ``RequestHeadRules``) before
    /// anything acts on it; a refusal closes the connection, so no byte
    /// after a head that could be read two ways is read as a request.
    private func receiveHead(
        _ context: RequestContext, connection: OpaquePointer, method: String, version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        let method = HTTPMethod(rawValue: method)
        context.method = method
        context.remoteAddress =
            context.connection?.remoteAddress
            ?? webpbridge_connection_client_address(connection).flatMap(SocketAddress.text(of:))
        context.phase = .receivingBody
        guard let version else { return answerNow(.text(.badRequest, "malformed request line"), context, connection) }
        context.version = String(cString: version)
        let head = MHDRequestHead.read(connection, version: version, targetEnd: context.targetEnd)
        context.headers = head.fields
        guard head.isWellFormed else {
            return answerNow(
                .text(.badRequest, "malformed request head (NUL, bare LF or obs-fold)"), context, connection)
        }
        guard context.targetIsUTF8 else {
            // RFC 9112 §3.2: a target is ASCII; raw UTF-8 is passed on as sent, other bytes refused.
            return answerNow(.text(.badRequest, "request target is not UTF-8"), context, connection)
        }
        guard !head.hasPaddedFraming else {
            return answerNow(
                .text(.badRequest, "whitespace after the value of Transfer-Encoding"), context, connection)
        }
        if let refusal = RequestHeadRules.refusal(
            method: method.rawValue, target: context.target, version: context.version, fields: head.fields)
        {
            return answerNow(.text(refusal.status, refusal.reason), context, connection)
        }
        guard configuration.acceptedMethods.contains(method) else {
            return answerNow(.text(.notImplemented, "method \(method) is not supported"), context, connection)
        }
        if let declared = context.headers["Content-Length"].flatMap(UInt64.init) {
            guard declared <= UInt64(min(maxBodyBytes, bodyBudget.limit)) else {
                return answerNow(.contentTooLarge(limit: min(maxBodyBytes, bodyBudget.limit)), context, connection)
            }
            // Charged before a byte of the body is read (or `100 Continue`
            // is sent), so a flood of large bodies is refused, not held.
            guard bodyBudget.reserve(Int(declared)) else { return answerNow(.bodiesOverBudget, context, connection) }
            context.chargedBodyBytes = Int(declared)
            context.body.reserveCapacity(Int(declared))
        }
        return .YES
    }

    /// Keeps the body up to the limit; past it, drops what was kept and
    /// discards the rest (the answer, 413, can only be sent once the body
    /// is over, and the watchdog bounds how long that takes).
    private func receiveBodyChunk(_ context: RequestContext, upload: UnsafePointer<CChar>?, size: Int) {
        guard !context.bodyTooLarge, !context.bodyOverBudget, let upload else { return }
        if context.body.count + size > maxBodyBytes {
            context.bodyTooLarge = true
            dropBody(context)
        } else if context.body.count + size > context.chargedBodyBytes,
            !chargeBody(context, upTo: context.body.count + size)
        {
            context.bodyOverBudget = true
            dropBody(context)
        } else {
            context.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: size)
        }
    }

    /// Charges a chunked body's growth to `bodyBudget` (a declared length
    /// was charged with the head).
    private func chargeBody(_ context: RequestContext, upTo total: Int) -> Bool {
        guard bodyBudget.reserve(total - context.chargedBodyBytes) else { return false }
        context.chargedBodyBytes = total
        return true
    }

    /// Lets go of the body and gives its charge back.
    private func dropBody(_ context: RequestContext) {
        context.body = Data()
        bodyBudget.release(context.chargedBodyBytes)
        context.chargedBodyBytes = 0
    }

    /// Answers at once when the handler's ``HTTPHandler/immediateResponse(to:)``
    /// can; otherwise suspends the connection and runs the handler in a
    /// task, which queues the response and resumes the connection.
    private func dispatch(_ context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        markDispatched(context)
        if let watched = context.connection { watchdog.requestReceived(on: watched) }
        let request = context.makeRequest()
        if let response = handler.immediateResponse(to: request) {
            // Queued from the last call of the access handler, so the
            // connection is kept alive.
            let draining = isDraining
            if !draining, let built = response.prepared?.built { return queue(built, for: context, on: connection) }
            let built = MHDResponse(
                response, isHEAD: context.isHEAD, closeConnection: draining, headRoom: headRoom(context))
            return queue(built, for: context, on: connection)
        }
        let admitted = suspensions.withLock { suspensions in
            guard !suspensions.closed else { return false }
            suspensions.waiting[ObjectIdentifier(context)] = Waiting(
                connection: SuspendedConnection(pointer: connection), context: context)
            // Inside the lock, so `closeSuspensions` never resumes a
            // connection that is not suspended yet.
            MHD_suspend_connection(connection)
            return true
        }
        guard admitted else {
            return answerNow(.text(.serviceUnavailable, "the server is shutting down"), context, connection)
        }
        let handler = self.handler
        let threads = handlerThreads
        let task = Task(executorPreference: threads) { [self] in
            let response = await WorkerThreads.$current.withValue(threads) { await handler.handle(request) }
            answerSuspended(context, with: response)
        }
        suspensions.withLock { $0.waiting[ObjectIdentifier(context)]?.task = task }
        return .YES
    }

    /// The bytes of the connection's memory left for the response head once
    /// the request head is held (see ``MHDResponse``).
    private func headRoom(_ context: RequestContext) -> Int {
        configuration.limits.maxHeaderBytes - context.headBytes
    }

    private func markDispatched(_ context: RequestContext) {
        context.phase = .dispatched
        requestsInFlight.add(1, ordering: .sequentiallyConsistent)
    }

    private var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// Whether a new connection is taken: until ``beginDraining()``.
    var acceptsConnections: Bool { !isDraining }

    /// Queues a refusal from the access handler itself, closing the connection.
    private func answerNow(_ response: HTTPResponse, _ context: RequestContext, _ connection: OpaquePointer)
        -> MHD_Result
    {
        if context.phase != .dispatched { markDispatched(context) }
        return queue(
            MHDResponse(response, isHEAD: context.isHEAD, closeConnection: true, headRoom: headRoom(context)),
            for: context, on: connection)
    }

    /// Queues the handler's response and resumes the connection, unless
    /// shutdown already answered it. The response is built before taking
    /// the lock, which guards only the queueing and resumption.
    private func answerSuspended(_ context: RequestContext, with response: HTTPResponse) {
        let draining = isDraining
        let built =
            draining
            ? MHDResponse(response, isHEAD: context.isHEAD, closeConnection: true, headRoom: headRoom(context))
            : response.prepared?.built
                ?? MHDResponse(response, isHEAD: context.isHEAD, closeConnection: false, headRoom: headRoom(context))
        suspensions.withLock { suspensions in
            guard let waiting = suspensions.waiting.removeValue(forKey: ObjectIdentifier(context)) else {
                return
            }
            _ = queue(built, for: context, on: waiting.connection.pointer)
            MHD_resume_connection(waiting.connection.pointer)
        }
    }

    /// Where every answer — immediate, refused, asynchronous or shut down —
    /// is handed to libmicrohttpd, noting what the request log reports.
    /// `nil` (libmicrohttpd could not allocate) queues nothing, and
    /// libmicrohttpd closes the connection.
    private func queue(_ built: MHDResponse?, for context: RequestContext, on connection: OpaquePointer)
        -> MHD_Result
    {
        guard let built else { return .NO }
        if built.refusedField != nil { metrics?.increment(HTTPServer.refusedResponsesFamily) }
        context.status = built.status
        // A prepared response, built for GET, sends no body to HEAD either.
        context.bodyBytes = context.isHEAD ? 0 : built.bodyBytes
        // Alive until libmicrohttpd holds its own reference: a prepared
        // response's owner (a cache) may let go of it at any moment.
        return withExtendedLifetime(built) {
            MHD_queue_response(connection, UInt32(built.status.code), built.pointer)
        }
    }

    /// The completion callback: reports the request and frees its context.
    func requestCompleted(_ context: RequestContext, termination: MHD_RequestTerminationCode) {
        dropBody(context)
        if context.phase == .dispatched,
            requestsInFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0, isDraining
        {
            drainWatch.withLockWakingWaiters { $0.changes += 1 }
        }
        if let watched = context.connection { watchdog.requestFinished(on: watched) }
        guard let requestLog, let method = context.method else { return }
        requestLog(
            HTTPRequestLog(
                method: method, target: context.target, status: context.status, bodyBytes: context.bodyBytes,
                duration: ContinuousClock.now - context.startedAt, remoteAddress: context.remoteAddress,
                completed: termination == .REQUEST_TERMINATED_COMPLETED_OK))
    }

    // MARK: - Shutdown

    /// From now on every response asks the client to close the connection,
    /// and a new connection is closed as it is accepted
    /// (``MHDCallbacks/acceptPolicy``).
    func beginDraining() {
        draining.store(true, ordering: .sequentiallyConsistent)
        drainWatch.withLockWakingWaiters { $0.changes += 1 }
    }

    /// Returns once ``beginDraining()`` has been called (a test seam);
    /// returns early when the task is cancelled.
    func waitUntilDraining() async {
        await drainWatch.wait { _ in self.isDraining }
    }

    /// Returns once no request is in flight, woken by the last one
    /// finishing (after ``beginDraining()``), never by polling; returns
    /// early when the task is cancelled.
    func waitUntilNoRequestInFlight() async {
        await drainWatch.wait { _ in self.inFlightCount == 0 }
    }

    /// Answers every request still waiting for its handler with 503, and
    /// suspends no more; after this the daemon may be stopped. A handler
    /// that finishes later finds its request gone and drops its response.
    func closeSuspensions() {
        let unavailable = HTTPResponse.text(.serviceUnavailable, "the server shut down before answering")
        suspensions.withLock { suspensions in
            suspensions.closed = true
            for waiting in suspensions.waiting.values {
                let built = MHDResponse(unavailable, isHEAD: waiting.context.isHEAD, closeConnection: true)
                _ = queue(built, for: waiting.context, on: waiting.connection.pointer)
                MHD_resume_connection(waiting.connection.pointer)
            }
            suspensions.waiting.removeAll()
        }
    }

    /// Cancels the handler of every suspended request whose client has
    /// gone away (end of stream or a reset on its socket), so work nobody
    /// will receive — a queued transcode, an upstream fetch — stops early.
    /// The handler's answer, if it still gives one, is dropped by
    /// libmicrohttpd with the connection.
    ///
    /// libmicrohttpd does not watch a suspended connection's socket, so the
    /// watchdog's sweep asks: a non-blocking `MSG_PEEK` read that returns 0
    /// means the client closed (pipelined bytes are left for libmicrohttpd).
    /// Under `suspensions`' lock, a listed connection is suspended, so its
    /// socket is open and cannot be reused meanwhile.
    func cancelAbandonedHandlers() {
        suspensions.withLock { suspensions in
            for (key, waiting) in suspensions.waiting where !waiting.cancelled {
                guard let task = waiting.task, let socket = waiting.context.connection?.socket else { continue }
                var byte: UInt8 = 0
                let received = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                let gone = received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                guard gone else { continue }
                task.cancel()
                suspensions.waiting[key]?.cancelled = true
            }
        }
    }

    // MARK: - libmicrohttpd's error log

    /// Keeps libmicrohttpd's messages while the daemon starts, to explain a
    /// failure; later ones (client resets and the like) are dropped.
    var isCollectingStartupMessages: Bool { collectingStartupMessages.withLock { $0 } }

    func record(message: String) {
        guard isCollectingStartupMessages else { return }
        startupMessages.withLock { if $0.count < 16 { $0.append(message) } }
    }

    /// Stops collecting and returns what was collected.
    func takeStartupMessages() -> [String] {
        collectingStartupMessages.withLock { $0 = false }
        return startupMessages.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }
}

extension HTTPResponse {
    fileprivate static let bodiesOverBudget = HTTPResponse.text(
        .serviceUnavailable, "the server is holding too many request bodies; try again shortly",
        headers: ["Retry-After": "1"])

    fileprivate static func contentTooLarge(limit: Int) -> HTTPResponse {
        .text(.contentTooLarge, "request body is larger than the server's limit of \(limit) bytes")
    }
}

/// What shutdown (and a test) waits on: draining began, the requests in
/// flight reached 0 while draining. The facts themselves are the core's
/// atomics; this counts the changes, so that waiters are woken.
private struct DrainWatch: WaitableState {
    var changes = 0
    var waiters = StateWaiters<DrainWatch>()
}
