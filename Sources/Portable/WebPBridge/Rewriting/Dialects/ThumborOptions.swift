/// Settings of the ``RewriteDialect/thumbor(_:)`` dialect.
public struct ThumborOptions: Sendable, Hashable {
    /// The thumbor server (`https://thumbor.example.com`) that plain image URLs
    /// on the rule's hosts are sent through, or `nil` when the rule's hosts
    /// are thumbor servers themselves (then only their own paths are rewritten).
    public var server: String?

    /// Creates thumbor settings.
    public init(server: String? = nil) {
        self.server = server
    }
}
