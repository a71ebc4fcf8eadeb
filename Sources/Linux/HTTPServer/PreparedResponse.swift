internal import CMicroHTTPD

/// A response built once into a libmicrohttpd response and queued for every
/// request it answers, for caches of ready answers: no headers added one by
/// one, no body wrapped, per request.
///
/// libmicrohttpd counts references to a response: creating it holds one,
/// each `MHD_queue_response` adds one that is dropped once that connection
/// has sent it, and `MHD_destroy_response` drops the creator's; the response
/// (and the ``BodyBytes`` it sends from) is freed when the count reaches
/// zero, "so we allocate a response for each response kind, use it every
/// time we have to give that response" (libmicrohttpd manual, "Responses"
/// and "Enqueuing a response",
/// https://www.gnu.org/software/libmicrohttpd/manual/html_node/microhttpd_002dresponse-enqueue.html).
/// This object owns the creator's reference and drops it in `deinit`, so a
/// cache that evicts it while connections still send it frees nothing they
/// need.
///
/// Used only where it is exact: a body in memory (``HTTPResponse/Body/bytes(_:)``,
/// ``HTTPResponse/Body/data(_:)`` or none). A file body is built per request
/// (a prepared one would hold a descriptor open for as long as a cache keeps
/// it), and so is a response libmicrohttpd refuses a field of (the server
/// answers 500 and counts it), and every response while the server drains
/// (it adds `Connection: close`). `HEAD` is answered from the same response:
/// libmicrohttpd sends its headers and `Content-Length` and never its body
/// (`MHD_queue_response` in 0.9.75's `src/microhttpd/connection.c`: for a
/// `HEAD` request it "pretend[s] that we have already sent the full message
/// body", https://git.gnunet.org/libmicrohttpd.git/tree/src/microhttpd/connection.c?h=v0.9.75).
///
/// Thread safety: `@unchecked Sendable` without a lock: nothing changes the
/// libmicrohttpd response after `init`, and libmicrohttpd guards its
/// reference count with its own mutex.
public final class PreparedResponse: @unchecked Sendable {
    /// The response as the handler made it.
    public let response: HTTPResponse

    /// The libmicrohttpd response, or `nil` when it is built per request.
    let built: MHDResponse?

    /// Builds the libmicrohttpd response for `response`, once.
    /// - Parameter response: A response to send unchanged many times.
    public init(_ response: HTTPResponse) {
        self.response = response
        switch response.body {
        case .file:
            built = nil
        case .empty, .data, .bytes:
            let made = MHDResponse(response, isHEAD: false, closeConnection: false)
            built = made?.refusedField == nil ? made : nil
        }
    }

    /// Whether requests are answered with the response built once.
    public var isBuilt: Bool { built != nil }
}
