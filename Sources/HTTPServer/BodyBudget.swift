import Synchronization

/// The request-body bytes all connections of a server may hold at once
/// (``HTTPServer/Configuration/Limits-swift.struct/maxBodyBytesInFlight``).
///
/// A request is charged its declared `Content-Length` when its head
/// arrives, or chunk by chunk for a chunked body, and gives the charge back
/// when its response has been sent (the handler holds the body until then).
/// Lock-free: libmicrohttpd's worker threads charge and release concurrently.
final class BodyBudget: Sendable {
    /// The most bytes that may be charged at once.
    let limit: Int
    private let charged = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes charged now.
    var inUse: Int { charged.load(ordering: .relaxed) }

    /// Charges `bytes` if they fit in what is left.
    /// - Returns: Whether they were charged.
    func reserve(_ bytes: Int) -> Bool {
        var current = charged.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = charged.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back bytes charged by ``reserve(_:)``.
    func release(_ bytes: Int) {
        if bytes > 0 { charged.subtract(bytes, ordering: .relaxed) }
    }
}
