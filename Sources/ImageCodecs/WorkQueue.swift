import Synchronization

/// Bounds CPU-heavy work such as decoding and encoding: at most
/// `concurrency` jobs run at once, at most `queueLimit` wait; beyond that a
/// job is refused at once (a server answers 503 with `Retry-After`) instead
/// of piling up memory and latency.
///
/// Jobs run on detached tasks, off the callers' executors. Shared by the
/// origin, the pipeline's decoder and the bridge.
public final class WorkQueue: Sendable {
    /// Thrown when the queue is full.
    public struct Full: Error, Sendable {}

    private struct State {
        var running = 0
        /// Each waiter is resumed with `true` when a slot passes to it.
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    public let concurrency: Int
    public let queueLimit: Int
    private let state = Mutex(State())

    public init(concurrency: Int, queueLimit: Int) {
        precondition(concurrency > 0 && queueLimit >= 0)
        self.concurrency = concurrency
        self.queueLimit = queueLimit
    }

    /// Runs `job` when a slot is free.
    ///
    /// - Throws: ``Full`` when `queueLimit` jobs are already waiting, or what `job` throws.
    public func run<T: Sendable>(_ job: @escaping @Sendable () throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await Task.detached(priority: .userInitiated) { try job() }.value
    }

    private func acquire() async throws {
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let decision: Bool? = state.withLock { state in
                if state.running < concurrency {
                    state.running += 1
                    return true
                }
                if state.waiting.count < queueLimit {
                    state.waiting.append(continuation)
                    return nil
                }
                return false
            }
            if let decision { continuation.resume(returning: decision) }
        }
        if !admitted { throw Full() }
    }

    private func release() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            // The slot passes straight to the next waiter.
            return state.waiting.removeFirst()
        }
        next?.resume(returning: true)
    }

    /// Jobs running and waiting now.
    public var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }
}
