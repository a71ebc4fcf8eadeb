// Linux (and any platform whose manifest provides libcurl): the curl loader.
#if canImport(CCurl)
    internal import CCurl
    import Foundation

    /// One libcurl multi handle and the one thread that drives it: every
    /// transfer of a ``CurlDataLoader`` runs here, sharing the multi handle's
    /// connection cache (keep-alive) and DNS cache.
    ///
    /// `@unchecked Sendable`: callers only touch `inbox`, behind its `Lock`,
    /// and call `curl_multi_wakeup`, which libcurl documents as callable from
    /// any thread. Everything else — the multi handle, every easy handle, the
    /// active transfers and the handle pool — is confined to the curl thread.
    final class CurlMultiDriver: @unchecked Sendable {
        private enum Command {
            case add(CurlTransfer, CurlTransfer.Continuation)
            case cancel(CurlTransfer)
        }

        private struct Inbox {
            var commands: [Command] = []
            var shuttingDown = false
        }

        private let inbox = Lock(Inbox())
        private let multi: UnsafeMutableRawPointer
        private let configuration: CurlDataLoader.Configuration

        // Curl thread only.
        private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        private var idleHandles: [CurlEasyHandle] = []
        private let idleSockets: IdleSockets

        /// Creates the multi handle and starts its thread.
        /// - Parameters:
        ///   - configuration: Connection and handle pool sizes, timeouts.
        ///   - globalInit: What `curl_global_init` returned (tests pass a
        ///     failure, which cannot be provoked otherwise).
        /// - Throws: ``DataLoadingError`` (`networkFailure`) when libcurl could
        ///   not be initialised or cannot allocate a multi handle; no thread is
        ///   started then.
        init(configuration: CurlDataLoader.Configuration, globalInit: CURLcode = CurlGlobal.result)
            throws(DataLoadingError)
        {
            try CurlGlobal.check(globalInit)
            guard let multi = curl_multi_init() else {
                throw DataLoadingError(.networkFailure, "curl_multi_init failed: out of memory")
            }
            self.multi = multi
            self.configuration = configuration
            // Twice the connections libcurl keeps: it closes some without a word, whose sockets age out.
            idleSockets = IdleSockets(capacity: 2 * max(1, configuration.maxIdleConnections))
            // Failing to set a limit only loses the bound, never correctness.
            _ = webpbridge_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, configuration.maxIdleConnections))
            _ = webpbridge_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_NOTHING))
            let thread = Thread { [self] in run() }
            thread.name = "webp-bridge.curl"
            thread.start()
        }

        /// Hands a transfer to the curl thread, which resumes `continuation`
        /// exactly once.
        func submit(_ transfer: CurlTransfer, _ continuation: CurlTransfer.Continuation) {
            inbox.withLock { $0.commands.append(.add(transfer, continuation)) }
            curl_multi_wakeup(multi)
        }

        /// Stops a transfer: it is removed from the multi handle on the curl
        /// thread and finishes with `cancelled`. Any thread; any number of times.
        func cancel(_ transfer: CurlTransfer) {
            transfer.markCancelled()
            inbox.withLock { $0.commands.append(.cancel(transfer)) }
            curl_multi_wakeup(multi)
        }

        /// Ends the thread once no transfer is left; it then frees every handle.
        func shutdown() {
            inbox.withLock { $0.shuttingDown = true }
            curl_multi_wakeup(multi)
        }

        // MARK: The curl thread

        private func run() {
            var running: Int32 = 0
            while true {
                let (commands, shuttingDown) = inbox.withLock { inbox in
                    let taken = inbox.commands
                    inbox.commands = []
                    return (taken, inbox.shuttingDown)
                }
                for command in commands {
                    switch command {
                    case .add(let transfer, let continuation): start(transfer, continuation)
                    case .cancel(let transfer): stop(transfer)
                    }
                }
                if shuttingDown, active.isEmpty { break }
                do {
                    try CurlCode.check(curl_multi_perform(multi, &running), "curl_multi_perform")
                } catch {
                    failAll(error)
                }
                collectFinished()
                do {
                    // Sleeps until a socket is ready, curl's next timeout, or a
                    // wakeup from submit/cancel/shutdown; at most a second.
                    try CurlCode.check(curl_multi_poll(multi, nil, 0, 1000, nil), "curl_multi_poll")
                } catch {
                    // Without a working poll nothing tells the transfers apart
                    // from hung ones: each fails now with libcurl's reason, and
                    // the thread pauses so a lasting failure does not spin a core.
                    failAll(error)
                    Thread.sleep(forTimeInterval: Self.pauseAfterFailedPoll)
                }
            }
            idleHandles.removeAll()
            curl_multi_cleanup(multi)
        }

        private func start(_ transfer: CurlTransfer, _ continuation: CurlTransfer.Continuation) {
            transfer.attach(continuation)
            if transfer.isCancelled {
                transfer.finish(.failure(CurlTransfer.cancellation(transfer.label)))
                return
            }
            guard let easy = idleHandles.popLast() ?? CurlEasyHandle() else {
                transfer.finish(.failure(DataLoadingError(.networkFailure, "\(transfer.label): curl_easy_init failed")))
                return
            }
            do {
                try easy.reset()
                try transfer.configure(easy, configuration, idleSockets: idleSockets)
                try CurlCode.check(curl_multi_add_handle(multi, easy.raw), "curl_multi_add_handle")
                active[easy.raw] = transfer
            } catch {
                recycle(transfer.finish(.failure(error)))
            }
        }

        /// How long the thread pauses after `curl_multi_poll` failed.
        private static let pauseAfterFailedPoll: TimeInterval = 0.05

        private func stop(_ transfer: CurlTransfer) {
            guard let easy = transfer.easy, active[easy.raw] === transfer else {
                // Not added yet (start sees the flag) or already finished.
                return
            }
            active[easy.raw] = nil
            let detached = detach(easy.raw, transfer.label)
            let handle = transfer.finish(.failure(CurlTransfer.cancellation(transfer.label)))
            if detached == nil { recycle(handle) }
        }

        private func collectFinished() {
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle else { continue }
                let code = webpbridge_curl_msg_result(message)
                if code == CURLE_OK {
                    // The connection goes back to libcurl's cache (or is closed, and its socket ages out).
                    var socket = curl_socket_t(-1)
                    if webpbridge_curl_easy_getinfo_socket(raw, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK {
                        idleSockets.record(socket)
                    }
                }
                let refusal = detach(raw, active[raw]?.label ?? "a finished transfer")
                guard let transfer = active.removeValue(forKey: raw) else { continue }
                if let refusal {
                    transfer.finish(.failure(refusal))
                } else if transfer.prepareFreshConnection(),
                    curl_multi_add_handle(multi, raw) == CURLM_OK
                {
                    active[raw] = transfer
                } else {
                    recycle(transfer.complete(code))
                }
            }
        }

        private func failAll(_ error: DataLoadingError) {
            for (raw, transfer) in active {
                let detached = detach(raw, transfer.label)
                let handle = transfer.finish(.failure(error))
                if detached == nil { recycle(handle) }
            }
            active.removeAll()
        }

        /// Takes an easy handle out of the multi handle. Returns libcurl's
        /// refusal as an error, or `nil` when it is out. A handle libcurl would
        /// not take out is never pooled: it is freed with its transfer, and
        /// `curl_easy_cleanup` detaches it from the multi handle first.
        private func detach(_ raw: UnsafeMutableRawPointer, _ label: String) -> DataLoadingError? {
            do {
                try CurlCode.check(curl_multi_remove_handle(multi, raw), "\(label): curl_multi_remove_handle")
                return nil
            } catch {
                return error
            }
        }

        /// Keeps a finished transfer's handle for the next one, up to the pool
        /// limit; a handle over the limit is freed here.
        private func recycle(_ easy: CurlEasyHandle?) {
            guard let easy, idleHandles.count < configuration.maxPooledHandles else { return }
            idleHandles.append(easy)
        }
    }
#endif
