/// Runs one piece of work per key however many callers ask for it at once,
/// and hands every caller the result.
///
/// A caller that is cancelled stops waiting at once; the shared work is
/// cancelled only when every caller has gone. Thread-safe: one `Lock`
/// guards the table; continuations are resumed outside it, exactly once, by
/// whoever removes them from the table.
final class TaskCoalescer<Value: Sendable>: Sendable {
    private struct Entry {
        /// Tells this run from a later one for the same key.
        var generation: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
    }

    private struct State: WaitableState {
        var entries: [String: Entry] = [:]
        var nextID: UInt64 = 0
        /// Tests waiting for a count (``waitUntilInFlightCount(_:)``).
        var waiters = StateWaiters<State>()
    }

    private let state = Lock(State())

    private enum Admission { case cancelled, joined, started }

    /// The result of `work` for `key`, sharing a run already in flight.
    func value(for key: String, work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let admission: Admission = state.withLockWakingWaiters { state in
                    if Task.isCancelled { return .cancelled }
                    if state.entries[key] != nil {
                        state.entries[key]!.waiters[id] = continuation
                        return .joined
                    }
                    state.entries[key] = Entry(generation: id, waiters: [id: continuation])
                    return .started
                }
                switch admission {
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .joined:
                    break
                case .started:
                    // On the first caller's threads when it has its own (a server handler).
                    let task = Task.onCurrentThreads {
                        let result: Result<Value, any Error>
                        do {
                            result = .success(try await work())
                        } catch {
                            result = .failure(error)
                        }
                        self.finish(key, generation: id, with: result)
                    }
                    let orphaned = state.withLock { state -> Bool in
                        guard state.entries[key]?.generation == id else { return true }
                        state.entries[key]!.task = task
                        return false
                    }
                    // Every waiter left (or the work already finished) before
                    // the task was recorded; cancelling a finished task is harmless.
                    if orphaned { task.cancel() }
                }
            }
        } onCancel: {
            let (continuation, abandoned): (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) =
                state.withLockWakingWaiters { state in
                    guard let continuation = state.entries[key]?.waiters.removeValue(forKey: id) else {
                        return (nil, nil)
                    }
                    guard state.entries[key]!.waiters.isEmpty else { return (continuation, nil) }
                    let task = state.entries.removeValue(forKey: key)?.task
                    return (continuation, task)
                }
            continuation?.resume(throwing: CancellationError())
            abandoned?.cancel()
        }
    }

    private func finish(_ key: String, generation: UInt64, with result: Result<Value, any Error>) {
        let waiters = state.withLockWakingWaiters { state -> [CheckedContinuation<Value, any Error>] in
            // A run whose callers all left may finish after a new run began.
            guard state.entries[key]?.generation == generation else { return [] }
            return state.entries.removeValue(forKey: key)?.waiters.values.map { $0 } ?? []
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// Keys with work in flight (for tests and metrics).
    var inFlightCount: Int { state.withLock { $0.entries.count } }

    /// Callers now waiting on `key`'s run: the one that started it and every
    /// one that joined it.
    func waiterCount(for key: String) -> Int { state.withLock { $0.entries[key]?.waiters.count ?? 0 } }

    /// Returns once ``waiterCount(for:)`` satisfies `condition`, woken by
    /// the callers joining and leaving: a test seam, so that tests wait for
    /// every caller to have joined instead of sleeping and hoping.
    func waitUntilWaiterCount(for key: String, _ condition: @escaping @Sendable (Int) -> Bool) async {
        await state.wait { condition($0.entries[key]?.waiters.count ?? 0) }
    }

    /// Returns once ``inFlightCount`` satisfies `condition` (a test seam).
    func waitUntilInFlightCount(_ condition: @escaping @Sendable (Int) -> Bool) async {
        await state.wait { condition($0.entries.count) }
    }
}
