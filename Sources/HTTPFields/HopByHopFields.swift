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

    /// The fields of an upstream response that a client is to get, in name
    /// order: end-to-end only, without `Content-Length` (whoever sends the
    /// body computes it), only well-formed ones, names in their usual case
    /// (``canonicalName(_:)``). Both bridges relay an upstream's answer
    /// through this.
    /// - Parameter fields: The response's fields as a loader read them
    ///   (names in any case, repeated fields already joined).
    public static func responseFieldsToForward(_ fields: [String: String]) -> [(name: String, value: String)] {
        let connection = connectionNames(
            fields.filter { $0.key.lowercased() == "connection" }.map(\.value))
        var forwarded: [(name: String, value: String)] = []
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard name.lowercased() != "content-length", !isHopByHop(name, connectionNames: connection),
                HTTPFieldSyntax.isValidField(name: name, value: value)
            else { continue }
            forwarded.append((canonicalName(name), value))
        }
        return forwarded
    }

    /// `content-type` → `Content-Type`, `etag` → `ETag`: loaders lower-case
    /// names, and although names are case-insensitive, people read them.
    public static func canonicalName(_ name: String) -> String {
        if name.lowercased() == "etag" { return "ETag" }
        return name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }
}
