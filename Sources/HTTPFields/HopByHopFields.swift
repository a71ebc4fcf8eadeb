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
}
