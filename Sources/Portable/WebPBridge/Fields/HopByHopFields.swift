/// Which header fields are hop-by-hop (RFC 9110 §7.6.1) — they concern one
/// connection, and a proxy drops them — and which are end-to-end: a proxy
/// forwards those. Hop-by-hop are `Connection` and every field it names,
/// `Keep-Alive`, `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding` and
/// `Upgrade`.
public enum HopByHopFields {
    /// The fields that are always hop-by-hop, lower-cased.
    public static let alwaysHopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// Whether the field `name` (any case) is hop-by-hop.
    /// - Parameters:
    ///   - name: A field name.
    ///   - connectionNames: The names the message's `Connection` lists, as
    ///     ``connectionNames(_:)`` returns them.
    public static func isHopByHop(_ name: String, connectionNames: Set<String>) -> Bool {
        let lowered = name.lowercased()
        return alwaysHopByHop.contains(lowered) || lowered.hasPrefix("proxy-") || connectionNames.contains(lowered)
    }

    /// The names `Connection` lists, lower-cased (`close` and `keep-alive`
    /// included; dropping them is harmless).
    /// - Parameter values: Every `Connection` field value of a message.
    public static func connectionNames(_ values: [String]) -> Set<String> {
        var names: Set<String> = []
        for value in values {
            for name in value.split(separator: ",") {
                let trimmed = name.trimmingSpacesAndTabs
                if !trimmed.isEmpty { names.insert(trimmed.lowercased()) }
            }
        }
        return names
    }

    /// The fields of an upstream response that a client is to get: end-to-end
    /// only, without `Content-Length` (whoever sends the body computes it),
    /// only well-formed ones, each exactly as sent — in order, repeated
    /// names apart (two `Set-Cookie`s stay two), names as spelled, value
    /// bytes intact. Every bridge relays an upstream's answer through this.
    /// - Parameter fields: The response's header section as a loader read it.
    public static func responseFieldsToForward(_ fields: HTTPFieldList) -> HTTPFieldList {
        forwarding(fields, except: ["content-length"])
    }

    /// The request fields to send upstream: end-to-end only, without `Host`
    /// (the loader sends the upstream's), `Content-Length` (the loader
    /// computes it), `Expect` (the server already answered it) and `Via`
    /// (the caller adds it with its own entry), only well-formed ones (the
    /// server refuses other heads, but requests are also built in code),
    /// each exactly as sent.
    /// - Parameter fields: The client request's header section.
    public static func requestFieldsToForward(_ fields: HTTPFieldList) -> HTTPFieldList {
        forwarding(fields, except: ["host", "content-length", "expect", "via"])
    }

    private static func forwarding(_ fields: HTTPFieldList, except managed: Set<String>) -> HTTPFieldList {
        let connection = connectionNames(fields.values(for: "Connection"))
        var forwarded = fields
        forwarded.removeAll { field in
            managed.contains(field.name.lowercased()) || isHopByHop(field.name, connectionNames: connection)
                || !HTTPFieldSyntax.isToken(field.name) || !HTTPFieldSyntax.isValidValue(bytes: field.valueBytes)
        }
        return forwarded
    }
}
