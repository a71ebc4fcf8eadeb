import WebPBridge

/// The request-body bytes all connections of a server may hold at once
/// (``HTTPServer/Configuration/Limits-swift.struct/maxBodyBytesInFlight``);
/// also what a handler counts bodies it holds against (the bridge's
/// passed-through answers).
///
/// A request is charged its declared `Content-Length` when its head
/// arrives, or chunk by chunk for a chunked body, and gives the charge back
/// when its response has been sent (the handler holds the body until then).
/// Thread-safe: one `Lock` around the count, as libmicrohttpd's worker
/// threads charge and release concurrently.
public final class BodyBudget: Sendable {
    /// The most bytes that may be charged at once.
    public let limit: Int
    private let charged = Lock<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes charged now.
    public var inUse: Int { charged.withLock { $0 } }

    /// Charges `bytes` if they fit in what is left.
    /// - Returns: Whether they were charged.
    public func reserve(_ bytes: Int) -> Bool {
        charged.withLock { charged in
            guard bytes <= limit - charged else { return false }
            charged += bytes
            return true
        }
    }

    /// Gives back bytes charged by ``reserve(_:)``.
    public func release(_ bytes: Int) {
        if bytes > 0 { charged.withLock { $0 -= bytes } }
    }
}
