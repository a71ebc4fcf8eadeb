import HTTPServer

/// The bridge's entry in `Via` (RFC 9110 §7.6.3): added to every response
/// and to every request sent upstream, and recognised on the way in, so a
/// request that has already passed this bridge is refused instead of looping.
struct ViaHeader: Sendable, Equatable {
    /// The received-by token, e.g. `webp-bridge`.
    let token: String

    /// `1.1 webp-bridge`, for a message received over `protocolVersion`
    /// (`HTTP/1.0` gives `1.0`; anything else `1.1`).
    func entry(protocolVersion: String = "HTTP/1.1") -> String {
        (protocolVersion == "HTTP/1.0" ? "1.0 " : "1.1 ") + token
    }

    /// Whether any `Via` value names this bridge as a recipient.
    /// - Parameter values: Every `Via` field value of a message.
    func isLoop(_ values: [String]) -> Bool {
        for value in values {
            for element in value.split(separator: ",") {
                let parts = element.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count >= 2 else { continue }
                if parts[1].lowercased() == token.lowercased() { return true }
            }
        }
        return false
    }

    /// `existing` with this bridge's entry appended (`Via` lists recipients
    /// in order, the newest last).
    func appended(to existing: String?, protocolVersion: String = "HTTP/1.1") -> String {
        let mine = entry(protocolVersion: protocolVersion)
        guard let existing, !existing.isEmpty else { return mine }
        return existing + ", " + mine
    }
}
