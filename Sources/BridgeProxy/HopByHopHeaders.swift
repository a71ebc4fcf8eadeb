import HTTPFields
import HTTPServer

/// The bridge's forwarding of header fields over its `HTTPHeaders` and the
/// loaders' dictionaries: end-to-end fields only (which ones are hop-by-hop
/// is ``HopByHopFields``'s to say), and only well-formed ones.
enum HopByHopHeaders {
    /// The request fields to send upstream: end-to-end only, without `Host`
    /// (the loader sends the upstream's), `Content-Length` (the loader
    /// computes it), `Expect` (this server already answered it) and `Via`
    /// (the caller adds it with the bridge's entry), and without any field
    /// that is not well formed (a name that is not a token, a CR, LF or NUL
    /// in the value: the server refuses such heads, but requests are also
    /// built in code). Repeated fields are joined with `, `, which HTTP
    /// allows for every list-valued field.
    static func requestFieldsToForward(_ headers: HTTPHeaders) -> [String: String] {
        let connection = HopByHopFields.connectionNames(headers.values(for: "Connection"))
        let managed: Set<String> = ["host", "content-length", "expect", "via"]
        var fields: [String: String] = [:]
        for field in headers {
            let lowered = field.name.lowercased()
            guard !managed.contains(lowered), !HopByHopFields.isHopByHop(lowered, connectionNames: connection),
                HTTPFieldSyntax.isValidField(name: field.name, value: field.value)
            else { continue }
            if let existing = fields[lowered] {
                fields[lowered] = existing + ", " + field.value
            } else {
                fields[lowered] = field.value
            }
        }
        return fields
    }

    /// ``HopByHopFields/responseFieldsToForward(_:)`` as `HTTPHeaders`.
    static func responseFieldsToForward(_ headers: [String: String]) -> HTTPHeaders {
        var forwarded = HTTPHeaders()
        for field in HopByHopFields.responseFieldsToForward(headers) {
            forwarded.add(name: field.name, value: field.value)
        }
        return forwarded
    }
}
