import WebPBridge

/// Hands out job numbers to workers and keeps the first failure.
/// Thread-safe: a `Lock` around the counter and one around the failure.
final class JobCounter: Sendable {
    private let next = Lock<Int>(0)
    private let firstFailure = Lock<String?>(nil)
    let count: Int

    init(count: Int) { self.count = count }

    /// The next job number, or `nil` when all are handed out or a job failed.
    func claim() -> Int? {
        let index = next.withLock { value in
            defer { value += 1 }
            return value
        }
        return index < count && failure == nil ? index : nil
    }

    func fail(_ message: String) {
        firstFailure.withLock { if $0 == nil { $0 = message } }
    }

    var failure: String? { firstFailure.withLock { $0 } }
}
