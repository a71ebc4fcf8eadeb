/// One recipient's entry in `Via` (RFC 9110 §7.6.3): a proxy adds it to
/// every message it forwards, and recognises it on the way in, so a request
/// that has already passed this recipient is refused instead of looping.
public struct ViaHeader: Sendable, Hashable {
    /// The received-by token, e.g. `webp-bridge`.
    public let token: String

    /// Creates the entry for the recipient named `token` (a `pseudonym`:
    /// no spaces, no commas).
    public init(token: String) {
        self.token = token
    }

    /// `1.1 webp-bridge`, for a message received over `protocolVersion`
    /// (`HTTP/1.0` gives `1.0`; anything else `1.1`).
    public func entry(protocolVersion: String = "HTTP/1.1") -> String {
        (protocolVersion == "HTTP/1.0" ? "1.0 " : "1.1 ") + token
    }

    /// Whether any `Via` value names this recipient (in any case).
    /// - Parameter values: Every `Via` field value of a message.
    public func isLoop(_ values: [String]) -> Bool {
        let wanted = token.lowercased()
        for value in values {
            for element in value.split(separator: ",") {
                // protocol, received-by, then an optional comment.
                var parts = element.split(whereSeparator: { $0 == " " || $0 == "\t" }).makeIterator()
                guard parts.next() != nil, let receivedBy = parts.next() else { continue }
                if receivedBy.lowercased() == wanted { return true }
            }
        }
        return false
    }

    /// `existing` with this recipient's entry appended (`Via` lists
    /// recipients in order, the newest last). A `nil` or empty `existing`
    /// gives the entry alone.
    public func appended(to existing: String?, protocolVersion: String = "HTTP/1.1") -> String {
        let mine = entry(protocolVersion: protocolVersion)
        guard let existing, !existing.isEmpty else { return mine }
        return existing + ", " + mine
    }
}
