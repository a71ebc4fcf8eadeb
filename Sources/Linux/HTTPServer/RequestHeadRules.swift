import WebPBridge

/// The RFC 9112 rules a request head must meet before anything acts on it.
///
/// libmicrohttpd 0.9.75 is lenient where leniency lets two parsers read one
/// request two ways: it keeps a bare CR inside a value, takes the first of
/// two different `Content-Length`s, reads a chunked body when
/// `Content-Length` is also present and keeps the connection open, waits for
/// the end of a body in a transfer coding it does not know. A front proxy
/// that reads the same bytes otherwise lets a client smuggle a request or a
/// header past it. Every such head is refused here, with the connection
/// closed, before the handler or the body is reached.
enum RequestHeadRules {
    /// Why a head is refused: the status and what the client is told.
    struct Refusal: Equatable {
        var status: HTTPStatus
        var reason: String
    }

    /// The refusal `head` deserves, or `nil` when it may be served.
    /// - Parameters:
    ///   - method: The method as received.
    ///   - target: The request target as received.
    ///   - version: `HTTP/1.1` or `HTTP/1.0`.
    ///   - fields: Every header field, duplicates included, in order.
    static func refusal(method: String, target: String, version: String, fields: HTTPFieldList) -> Refusal? {
        guard HTTPFieldSyntax.isToken(method) else { return Refusal(status: .badRequest, reason: "malformed method") }
        guard HTTPFieldSyntax.isValidTarget(target) else {
            return Refusal(status: .badRequest, reason: "control byte or space in the request target")
        }
        var hosts = 0
        var framing: [HTTPFieldList.Field] = []
        for field in fields {
            guard HTTPFieldSyntax.isToken(field.name) else {
                return Refusal(status: .badRequest, reason: "malformed header field name")
            }
            guard HTTPFieldSyntax.isValidValue(field.value) else {
                return Refusal(status: .badRequest, reason: "control byte in the value of \(field.name)")
            }
            if HTTPFieldList.namesMatch(field.name, "Host") {
                hosts += 1
            } else if HTTPFieldList.namesMatch(field.name, "Content-Length")
                || HTTPFieldList.namesMatch(field.name, "Transfer-Encoding")
            {
                framing.append(field)
            }
        }
        guard hosts <= 1 else { return Refusal(status: .badRequest, reason: "more than one Host field") }
        guard version != "HTTP/1.1" || hosts == 1 else {
            // RFC 9112 §3.2: libmicrohttpd only enforces this in pedantic mode.
            return Refusal(status: .badRequest, reason: "HTTP/1.1 request without Host")
        }
        return framing.isEmpty ? nil : framingRefusal(HTTPFieldList(framing.map { ($0.name, $0.value) }))
    }

    /// RFC 9112 §6.1–6.3: one way to find where the body ends, or none.
    private static func framingRefusal(_ fields: HTTPFieldList) -> Refusal? {
        let lengths = fields.values(for: "Content-Length")
        let codings = fields.values(for: "Transfer-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingOWS().lowercased() }
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                return Refusal(status: .badRequest, reason: "both Content-Length and Transfer-Encoding")
            }
            if let unknown = codings.first(where: { $0 != "chunked" }) {
                return Refusal(
                    status: .notImplemented, reason: "transfer coding '\(unknown.prefix(40))' is not supported")
            }
            guard codings.count == 1 else {
                return Refusal(status: .badRequest, reason: "chunked applied more than once")
            }
        }
        let distinct = Set(lengths.map { $0.trimmingOWS() })
        guard distinct.count <= 1 else {
            return Refusal(status: .badRequest, reason: "conflicting Content-Length values")
        }
        if let length = distinct.first, length.isEmpty || !length.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return Refusal(status: .badRequest, reason: "malformed Content-Length")
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (RFC 9110 `OWS`).
    fileprivate func trimmingOWS() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
