/// Why a ``BridgeProxy`` could not be created.
public struct BridgeProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case invalidConfiguration
    }

    private let kind: Kind
    /// What is wrong and which field, e.g.
    /// `upstream 'ftp://x' is not an http:// or https:// URL with a host`.
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    static func invalidConfiguration(_ message: String) -> BridgeProxyError { .init(.invalidConfiguration, message) }

    /// Whether the configuration broke an invariant (the only kind so far;
    /// more may be added).
    public var isInvalidConfiguration: Bool { kind == .invalidConfiguration }

    /// ``message``.
    public var description: String { message }
}
