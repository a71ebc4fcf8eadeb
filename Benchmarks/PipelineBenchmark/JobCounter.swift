import Synchronization

/// Hands out job numbers to workers and keeps the first failure.
/// Thread-safe: an atomic counter and a `Mutex` around the failure.
final class JobCounter: Sendable {
    private let next = Atomic<Int>(0)
    private let firstFailure = Mutex<String?>(nil)
    let count: Int

    init(count: Int) { self.count = count }

    /// The next job number, or `nil` when all are handed out or a job failed.
    func claim() -> Int? {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < count && failure == nil ? index : nil
    }

    func fail(_ message: String) {
        firstFailure.withLock { if $0 == nil { $0 = message } }
    }

    var failure: String? { firstFailure.withLock { $0 } }
}
