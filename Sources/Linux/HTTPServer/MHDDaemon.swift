internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running libmicrohttpd daemon: the one owner of the `MHD_Daemon` handle
/// and of the retain on the ``HTTPServerCore`` its callbacks use.
///
/// `@unchecked Sendable`: the handle is immutable and only the owning
/// ``HTTPServer`` actor calls `stop()`; the info queries are thread-safe in
/// libmicrohttpd.
///
/// It is never quiesced. `MHD_quiesce_daemon` on a daemon with its own
/// epoll thread sets `was_quiesced` and removes the listening socket from
/// the epoll set, and that thread removes it too, at the connection limit
/// or once it sees `was_quiesced`, reading both flags without a lock: the
/// loser's `epoll_ctl` fails with ENOENT and libmicrohttpd aborts ("Failed
/// to remove listen FD from epoll set"; the notes of a libmicrohttpd fuzz
/// harness, `fuzz/fuzz_options.c`, call it an open defect). Whole `make
/// test-asan` and `make test-tsan` runs aborted there, in a server's
/// graceful shutdown. Draining refuses new connections through the accept
/// policy instead (``MHDCallbacks/acceptPolicy``), and `MHD_stop_daemon`
/// closes the socket.
final class MHDDaemon: @unchecked Sendable {
    private let pointer: OpaquePointer
    private let core: Unmanaged<HTTPServerCore>
    private var stopped = false

    /// The bound port.
    let port: Int

    /// Starts a daemon as `core.configuration` says.
    /// - Throws: ``HTTPServerError`` with libmicrohttpd's own message.
    init(core: HTTPServerCore) throws(HTTPServerError) {
        let configuration = core.configuration
        guard let address = SocketAddress(host: configuration.host, port: UInt16(configuration.port)) else {
            throw HTTPServerError(
                .invalidAddress,
                "cannot listen on '\(configuration.host)': not a numeric IPv4 or IPv6 address "
                    + "(use e.g. 127.0.0.1, 0.0.0.0 or ::1)")
        }
        var flags = Self.pollingMode | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let options = Self.options(for: configuration, connectionLimit: core.connectionLimit)
        let retained = Unmanaged.passRetained(core)
        let started = address.withSockAddr { sockaddr in
            webpbridge_start_daemon(
                flags, sockaddr, MHDCallbacks.acceptPolicy, MHDCallbacks.accessHandler, MHDCallbacks.requestCompleted,
                MHDCallbacks.requestLineReceived, MHDCallbacks.connectionNotified, MHDCallbacks.errorLogged,
                retained.toOpaque(), options)
        }
        let messages = core.takeStartupMessages()
        guard let started else {
            retained.release()
            throw Self.startError(
                configuration: configuration, address: address, errno: address.bindError(), messages: messages)
        }
        pointer = started
        self.core = retained
        port = Int(webpbridge_daemon_bound_port(started))
    }

    deinit { stop() }

    /// The internal thread's event loop. epoll exists only on Linux, and
    /// microhttpd.h says `MHD_USE_EPOLL_INTERNAL_THREAD` makes
    /// `MHD_start_daemon` fail on a system without it; `poll()` is the next
    /// best there (MHD_USE_AUTO's own order is epoll, poll, select). Explicit
    /// rather than MHD_USE_AUTO, so no platform silently falls back to
    /// `select()` and its FD_SETSIZE limit on connections.
    static var pollingMode: UInt32 {
        #if os(Linux)
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue
        #else
            MHD_USE_POLL_INTERNAL_THREAD.rawValue
        #endif
    }

    /// Connections now open.
    var openConnections: Int { stopped ? 0 : Int(webpbridge_daemon_current_connections(pointer)) }

    /// Closes every connection and joins the worker threads. No connection
    /// may be suspended (see ``HTTPServerCore/closeSuspensions()``).
    func stop() {
        guard !stopped else { return }
        stopped = true
        MHD_stop_daemon(pointer)
        core.release()
    }

    private static func options(for configuration: HTTPServer.Configuration, connectionLimit: Int)
        -> [MHD_OptionItem]
    {
        let limits = configuration.limits
        let timeout = limits.connectionTimeout.components
        let timeoutSeconds = Int(timeout.seconds) + (timeout.attoseconds > 0 ? 1 : 0)
        var options = [
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: limits.maxHeaderBytes, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: timeoutSeconds, ptr_value: nil),
        ]
        if let perClient = limits.maxConnectionsPerClient {
            options.append(MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: perClient, ptr_value: nil))
        }
        if configuration.threadPoolSize > 1 {
            options.append(
                MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadPoolSize, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        return options
    }

    /// Turns a failed start into an error that says what to do. libmicrohttpd
    /// returns no code and its `errno` does not survive its logging and
    /// clean-up, so a probe `bind` decides the kind; libmicrohttpd's log
    /// messages go into the text.
    private static func startError(
        configuration: HTTPServer.Configuration, address: SocketAddress, errno code: Int32, messages: [String]
    ) -> HTTPServerError {
        let endpoint =
            address.isIPv6
            ? "[\(configuration.host)]:\(configuration.port)" : "\(configuration.host):\(configuration.port)"
        let detail = messages.isEmpty ? "" : " (libmicrohttpd: \(messages.joined(separator: "; ")))"
        switch code {
        case EADDRINUSE:
            return HTTPServerError(
                .addressInUse,
                "cannot listen on \(endpoint): the port is already in use; stop the other server or choose "
                    + "another port (0 picks a free one)\(detail)")
        case EADDRNOTAVAIL:
            return HTTPServerError(
                .addressNotAvailable,
                "cannot listen on \(endpoint): the address does not belong to this machine\(detail)")
        case EACCES:
            return HTTPServerError(
                .addressNotAvailable,
                "cannot listen on \(endpoint): permission denied (ports below 1024 need privileges)\(detail)")
        default:
            let reason = code == 0 ? "unknown error" : String(cString: strerror(code))
            return HTTPServerError(.startFailed, "cannot start the HTTP server on \(endpoint): \(reason)\(detail)")
        }
    }
}
