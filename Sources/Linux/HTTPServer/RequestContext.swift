internal import CMicroHTTPD
import Foundation
import WebPBridge

/// The server's state for one request, from its request line to the
/// completion callback. libmicrohttpd keeps it in the request's `con_cls`
/// as a retained `Unmanaged` reference, released on completion.
///
/// `@unchecked Sendable` because the fields are plain vars, yet never used
/// concurrently: libmicrohttpd calls back for one connection on one thread
/// at a time, and the handler task touches `status` and `bodyBytes` only
/// between `MHD_suspend_connection` and `MHD_resume_connection`, while
/// libmicrohttpd leaves the connection alone. The suspension lock in
/// ``HTTPServerCore`` (taken around suspend and around queue + resume) orders
/// the writes before the completion callback reads them.
final class RequestContext: @unchecked Sendable {
    enum Phase {
        /// Request line seen, headers not yet handed to us.
        case awaitingHead
        /// Headers seen; body chunks (if any) arriving.
        case receivingBody
        /// Handed to the handler, or answered; nothing more to receive.
        case dispatched
    }

    let target: String
    /// Whether the target's bytes were UTF-8, and so are `target`'s exactly.
    let targetIsUTF8: Bool
    /// The address of the target's first NUL in libmicrohttpd's buffer
    /// when the request line arrived (see ``MHDRequestHead``).
    let targetEnd: Int
    let startedAt = ContinuousClock.now
    let connection: WatchedConnection?

    var phase = Phase.awaitingHead
    var method: HTTPMethod?
    var version = ""
    var headers = HTTPFieldList()
    var remoteAddress: String?
    var body = Data()
    var bodyTooLarge = false
    /// Bytes charged to the server's ``BodyBudget`` for this request.
    var chargedBodyBytes = 0
    /// The body passed what was left of the budget; it was dropped.
    var bodyOverBudget = false

    var status: HTTPStatus?
    var bodyBytes: UInt64 = 0

    init(target: String, targetIsUTF8: Bool = true, targetEnd: Int = 0, connection: WatchedConnection?) {
        self.target = target
        self.targetIsUTF8 = targetIsUTF8
        self.targetEnd = targetEnd
        self.connection = connection
    }

    var isHEAD: Bool { method == .head }

    /// What the request head holds of the connection's memory: its bytes,
    /// and libmicrohttpd's record of each field (seven machine words).
    var headBytes: Int {
        (method?.rawValue.utf8.count ?? 0) + target.utf8.count + version.utf8.count + 4 + headers.encodedByteCount
            + headers.count * Self.fieldRecordBytes
    }

    /// libmicrohttpd's `struct MHD_HTTP_Header`: two list links, two
    /// pointers, two sizes and a kind.
    static let fieldRecordBytes = 7 * MemoryLayout<Int>.size

    func makeRequest() -> HTTPRequest {
        HTTPRequest(
            method: method ?? .get, target: target, version: version, headers: headers, body: body,
            remoteAddress: remoteAddress)
    }
}

/// A libmicrohttpd connection pointer that may cross into the handler task.
///
/// `@unchecked Sendable` is safe because the pointer is only used while the
/// connection is suspended (libmicrohttpd neither frees nor processes a
/// suspended connection), only to queue a response and resume it, exactly
/// once, under ``HTTPServerCore``'s suspension lock — the only calls that
/// libmicrohttpd allows from another thread.
struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
