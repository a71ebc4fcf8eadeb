/// State a ``Lock`` guards that tasks can wait on: it keeps the tasks
/// waiting for it to satisfy a condition (``StateWaiters``).
package protocol WaitableState: Sendable {
    /// The tasks waiting for this state to satisfy a condition.
    var waiters: StateWaiters<Self> { get set }
}

/// Tasks waiting for a lock's state to satisfy a condition (a count reaching
/// a value), woken by the change that satisfies it rather than by polling.
///
/// The owner keeps one in its `State` and changes that state with
/// ``Lock/withLockWakingWaiters(_:)``, which checks the waiting conditions
/// after each change; with nobody waiting that is one `isEmpty` test. Tests
/// wait through ``Lock/wait(until:)``.
///
/// Bound: one entry per waiting task, removed when it is woken or cancelled.
package struct StateWaiters<State>: Sendable {
    private struct Waiter: Sendable {
        let condition: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private var waiting: [UInt64: Waiter] = [:]
    private var lastID: UInt64 = 0

    /// No task waits.
    package init() {}

    /// Whether no task waits.
    package var isEmpty: Bool { waiting.isEmpty }

    /// How many tasks wait.
    package var count: Int { waiting.count }

    fileprivate mutating func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    fileprivate mutating func add(
        _ id: UInt64, _ condition: @escaping @Sendable (State) -> Bool,
        _ continuation: CheckedContinuation<Void, Never>
    ) {
        waiting[id] = Waiter(condition: condition, continuation: continuation)
    }

    fileprivate mutating func remove(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
        waiting.removeValue(forKey: id)?.continuation
    }

    /// Removes and returns the waiters whose condition `state` satisfies.
    fileprivate mutating func removeSatisfied(by state: State) -> [CheckedContinuation<Void, Never>] {
        let satisfied = waiting.filter { $0.value.condition(state) }
        for id in satisfied.keys { waiting.removeValue(forKey: id) }
        return satisfied.values.map(\.continuation)
    }
}

extension Lock where State: WaitableState {
    /// ``withLock(_:)`` for a change to the state: afterwards, outside the
    /// lock, wakes the tasks waiting for a condition the new state satisfies.
    ///
    /// - Parameter body: changes the state; the same rules as for `withLock`.
    package func withLockWakingWaiters<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, woken) = withLock { state -> (Result, [CheckedContinuation<Void, Never>]) in
            let result = body(&state)
            guard !state.waiters.isEmpty else { return (result, []) }
            // Moved out, so that the conditions can read the state they are kept in.
            var waiters = state.waiters
            state.waiters = StateWaiters()
            let woken = waiters.removeSatisfied(by: state)
            state.waiters = waiters
            return (result, woken)
        }
        for continuation in woken { continuation.resume() }
        return result
    }

    /// Returns once `condition` holds for the state: at once if it holds
    /// now, otherwise on the first change (made through
    /// ``withLockWakingWaiters(_:)``) after which it holds. Returns early
    /// when the task is cancelled, so a test's time limit ends the wait.
    ///
    /// - Parameter condition: read under the lock; keep it a quick test.
    package func wait(until condition: @escaping @Sendable (State) -> Bool) async {
        let id = withLock { $0.waiters.nextID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = withLock { state -> Bool in
                    if Task.isCancelled || condition(state) { return true }
                    state.waiters.add(id, condition, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            withLock { $0.waiters.remove(id) }?.resume()
        }
    }
}
