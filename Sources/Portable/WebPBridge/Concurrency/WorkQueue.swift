/// Bounds work such as decoding and encoding: at most `concurrency` jobs run
/// at once, at most `queueLimit` wait — higher priority first, then in
/// order of arrival; beyond that a job is refused
/// at once (a server answers 503 with `Retry-After`) instead of piling up
/// memory and latency. A waiter whose task is cancelled leaves the queue
/// without running.
///
/// Shared by the origin, the pipeline's decoder and prefetcher, and the
/// bridge. Thread-safe: one `Lock` guards the counters and the waiters,
/// and each waiter is resumed exactly once, by whoever removes it.
public final class WorkQueue: Sendable {
    /// Thrown when `queueLimit` jobs are already waiting.
    public struct Full: Error, Sendable {
        /// The error, for callers that map it (and their tests).
        public init() {}
    }

    private struct State: WaitableState {
        var running = 0
        /// Highest priority first, first come first within a priority.
        var queued: [(id: UInt64, priority: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
        /// Tests waiting for the queue's load (``waitUntilLoad(_:)``).
        var waiters = StateWaiters<State>()
    }

    public let concurrency: Int
    public let queueLimit: Int
    private let state = Lock(State())
    /// Where ``run(_:)`` runs jobs: `concurrency` threads of the queue's own.
    private let threads: WorkerThreads

    public init(concurrency: Int, queueLimit: Int) {
        precondition(concurrency > 0 && queueLimit >= 0)
        self.concurrency = concurrency
        self.queueLimit = queueLimit
        threads = WorkerThreads(limit: concurrency, name: "webp.work")
    }

    /// Runs the synchronous `job` when a slot is free, on a thread of the
    /// queue's own: a decode or encode that takes a second never holds a
    /// thread of Swift's global executor (on Linux, one per core), which
    /// every other task in the process needs.
    ///
    /// - Parameter priority: The order among waiting jobs: a higher one
    ///   starts first (default 0). A job that is running is never preempted.
    /// - Throws: ``Full``, `CancellationError`, or what `job` throws.
    public func run<T: Sendable>(
        priority: Int = 0, _ job: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withSlot(priority: priority) {
            try await threads.run(job)
        }
    }

    /// Runs `body` in the caller's task when a slot is free.
    ///
    /// - Throws: ``Full``, `CancellationError` (cancelled while waiting), or
    ///   what `body` throws.
    public func withSlot<T: Sendable>(priority: Int = 0, _ body: () async throws -> T) async throws -> T {
        try await acquire(priority: priority)
        defer { release() }
        return try await body()
    }

    private enum Admission { case run, wait, refuse, cancelled }

    private func acquire(priority: Int) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        var refused = false
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let admission: Admission = state.withLockWakingWaiters { state in
                    if Task.isCancelled { return .cancelled }
                    if state.running < concurrency {
                        state.running += 1
                        return .run
                    }
                    guard state.queued.count < queueLimit else { return .refuse }
                    // After every waiter of the same or a higher priority.
                    let index = state.queued.firstIndex { $0.priority < priority } ?? state.queued.endIndex
                    state.queued.insert((id, priority, continuation), at: index)
                    return .wait
                }
                switch admission {
                case .run: continuation.resume(returning: true)
                case .refuse:
                    refused = true
                    continuation.resume(returning: false)
                case .cancelled: continuation.resume(returning: false)
                case .wait: break
                }
            }
        } onCancel: {
            let waiter = state.withLockWakingWaiters { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.queued.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queued.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
        if refused { throw Full() }
        if !admitted { throw CancellationError() }
    }

    private func release() {
        let next = state.withLockWakingWaiters { state -> CheckedContinuation<Bool, Never>? in
            if state.queued.isEmpty {
                state.running -= 1
                return nil
            }
            // The slot passes straight to the next waiter.
            return state.queued.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// Jobs running and waiting now.
    public var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.queued.count) }
    }

    /// Returns once `condition` holds for ``load``, woken by the change that
    /// makes it hold (no polling); returns early when the task is cancelled.
    package func waitUntilLoad(_ condition: @escaping @Sendable ((running: Int, waiting: Int)) -> Bool) async {
        await state.wait { condition(($0.running, $0.queued.count)) }
    }
}
