import Foundation

/// Runs prefetches at low priority, a bounded number at a time, and cancels
/// them on request. Holds only task handles; the pipeline does the work.
final class Prefetcher: Sendable {
    private struct State: WaitableState {
        var tasks: [String: Task<Void, Never>] = [:]
        /// Tests waiting for the running count (``waitUntilRunningCount(_:)``).
        var waiters = StateWaiters<State>()
    }

    private let state = Lock(State())
    let slots: WorkQueue

    init(concurrency: Int) {
        slots = WorkQueue(concurrency: concurrency, queueLimit: Int.max)
    }

    /// Starts `work` for `key` unless a prefetch for it is already running.
    func start(_ key: String, work: @escaping @Sendable () async -> Void) {
        state.withLockWakingWaiters { state in
            guard state.tasks[key] == nil else { return }
            state.tasks[key] = Task(priority: .utility) { [self] in
                try? await slots.withSlot { await work() }
                finish(key)
            }
        }
    }

    func cancel(_ key: String) {
        let task = state.withLockWakingWaiters { $0.tasks.removeValue(forKey: key) }
        task?.cancel()
    }

    private func finish(_ key: String) {
        _ = state.withLockWakingWaiters { $0.tasks.removeValue(forKey: key) }
    }

    var runningCount: Int { state.withLock { $0.tasks.count } }

    /// Returns once ``runningCount`` satisfies `condition`, woken by each
    /// prefetch starting, finishing or being cancelled (a test seam).
    func waitUntilRunningCount(_ condition: @escaping @Sendable (Int) -> Bool) async {
        await state.wait { condition($0.tasks.count) }
    }
}
