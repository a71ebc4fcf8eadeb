import HTTPFields
import HTTPServer

/// Separates end-to-end header fields, which a proxy forwards, from
/// hop-by-hop ones, which concern one connection and are dropped
/// (RFC 9110 §7.6.1): `Connection` and every field it names, `Keep-Alive`,
/// `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`.
enum HopByHopHeaders {
    /// The fields that are always hop-by-hop, lower-cased.
    static let alwaysDropped: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// Whether `name` is hop-by-hop, given the names `Connection` lists.
    static func isHopByHop(_ name: String, connectionNames: Set<String>) -> Bool {
        let lowered = name.lowercased()
        return alwaysDropped.contains(lowered) || lowered.hasPrefix("proxy-") || connectionNames.contains(lowered)
    }

    /// The names a `Connection` value lists, lower-cased (`close` and
    /// `keep-alive` included; dropping them is harmless).
    static func connectionNames(_ values: [String]) -> Set<String> {
        var names: Set<String> = []
        for value in values {
            for name in value.split(separator: ",") {
                let trimmed = name.trimmed(of: " \t")
                if !trimmed.isEmpty { names.insert(trimmed.lowercased()) }
            }
        }
        return names
    }

    /// The request fields to send upstream: end-to-end only, without `Host`
    /// (the loader sends the upstream's), `Content-Length` (the loader
    /// computes it), `Expect` (this server already answered it) and `Via`
    /// (the caller adds it with the bridge's entry), and without any field
    /// that is not well formed (a name that is not a token, a CR, LF or NUL
    /// in the value: the server refuses such heads, but requests are also
    /// built in code). Repeated fields are joined with `, `, which HTTP
    /// allows for every list-valued field.
    static func requestFieldsToForward(_ headers: HTTPHeaders) -> [String: String] {
        let connection = connectionNames(headers.values(for: "Connection"))
        let managed: Set<String> = ["host", "content-length", "expect", "via"]
        var fields: [String: String] = [:]
        for field in headers {
            let lowered = field.name.lowercased()
            guard !managed.contains(lowered), !isHopByHop(lowered, connectionNames: connection),
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

    /// `content-type` → `Content-Type`: loaders lower-case names, and
    /// although names are case-insensitive, people read them.
    static func canonicalName(_ name: String) -> String {
        if name.lowercased() == "etag" { return "ETag" }
        return name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }

    /// The response fields to send the client: end-to-end only, without
    /// `Content-Length` (the server computes it from the body), and only
    /// well-formed ones, whichever loader read them.
    static func responseFieldsToForward(_ headers: [String: String]) -> HTTPHeaders {
        let connection = connectionNames(headers["connection"].map { [$0] } ?? [])
        var forwarded = HTTPHeaders()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard name.lowercased() != "content-length", !isHopByHop(name, connectionNames: connection),
                HTTPFieldSyntax.isValidField(name: name, value: value)
            else { continue }
            forwarded.add(name: canonicalName(name), value: value)
        }
        return forwarded
    }
}

extension StringProtocol {
    fileprivate func trimmed(of set: String) -> Substring {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
