internal import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libmicrohttpd's callbacks: non-capturing closures that find the
/// ``HTTPServerCore`` through their context pointer (retained by
/// ``MHDDaemon`` for the daemon's life) and the per-connection and
/// per-request objects through retained `Unmanaged` pointers that the
/// closing callbacks release.
enum MHDCallbacks {
    private static func core(_ context: UnsafeMutableRawPointer?) -> HTTPServerCore {
        Unmanaged<HTTPServerCore>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Whether a connection just accepted is served (the `apc` of
    /// `MHD_start_daemon`): not once the server drains, and libmicrohttpd
    /// closes it at once. How the server stops accepting during a graceful
    /// shutdown, in place of `MHD_quiesce_daemon`, which on a daemon with
    /// its own epoll thread races that thread for the listening socket and
    /// can abort the process (``MHDDaemon``).
    static let acceptPolicy: MHD_AcceptPolicyCallback = { context, _, _ in
        core(context).acceptsConnections ? .YES : .NO
    }

    /// A connection opened or closed (`MHD_OPTION_NOTIFY_CONNECTION`).
    static let connectionNotified: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
        guard let connection, let socketContext else { return }
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let watched = core(context).connectionStarted(connection)
            socketContext.pointee = Unmanaged.passRetained(watched).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            guard let raw = socketContext.pointee else { return }
            socketContext.pointee = nil
            core(context).connectionClosed(Unmanaged<WatchedConnection>.fromOpaque(raw).takeRetainedValue())
        @unknown default:
            return
        }
    }

    /// The request line arrived (`MHD_OPTION_URI_LOG_CALLBACK`). Sees the
    /// target before libmicrohttpd unescapes it; what it returns becomes the
    /// request's `con_cls`.
    ///
    /// It also empties the query as libmicrohttpd is about to parse it into
    /// arguments: the server reads the raw target and never asks for them,
    /// and each one costs a record in the connection's memory pool — 500
    /// of them exhausted it, and the client got no answer at all.
    /// libmicrohttpd passes the target `const`, but it is its own read
    /// buffer, which it overwrites itself right after this call.
    static let requestLineReceived: webpbridge_uri_logger = { context, uri, connection in
        guard let connection else { return nil }
        // Bytes that are not UTF-8 would come out of `String(cString:)` as U+FFFD: another target.
        let decoded = uri.map { (String(validatingCString: $0), $0) }
        let target = decoded.map { $0.0 ?? String(cString: $0.1) } ?? "/"
        let targetIsUTF8 = decoded.map { $0.0 != nil } ?? true
        let targetEnd = uri.map { Int(bitPattern: $0) + strlen($0) } ?? 0
        if let uri, let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
            UnsafeMutablePointer(mutating: question)[1] = 0
        }
        let request = core(context).requestStarted(
            target: target, targetIsUTF8: targetIsUTF8, targetEnd: targetEnd, connection: connection)
        return Unmanaged.passRetained(request).toOpaque()
    }

    /// The access handler: head, body chunks, end of request.
    static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, _, method, version, upload, uploadSize, requestContext in
        guard let connection, let uploadSize, let raw = requestContext?.pointee else { return .NO }
        let request = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        return core(context).receive(
            request, connection: connection, method: method,
            version: version, upload: upload, uploadSize: uploadSize)
    }

    /// The request is over (`MHD_OPTION_NOTIFY_COMPLETED`): report and free it.
    static let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, termination in
        guard let requestContext, let raw = requestContext.pointee else { return }
        requestContext.pointee = nil
        core(context).requestCompleted(
            Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue(), termination: termination)
    }

    /// libmicrohttpd's error log (`MHD_OPTION_EXTERNAL_LOGGER`).
    static let errorLogged: MHD_LogCallback = { context, format, arguments in
        guard let format, let arguments, core(context).isCollectingStartupMessages else { return }
        var buffer = [UInt8](repeating: 0, count: 512)
        let written = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        }
        let length = min(max(0, Int(written)), buffer.count - 1)
        let message = String(decoding: buffer[..<length], as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        core(context).record(message: message)
    }
}
