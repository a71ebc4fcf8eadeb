import Foundation

#if canImport(Darwin)
    internal import Darwin
#elseif canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Marks a thread as one of a ``WorkerThreads``' (for ``WorkerThreads/isCurrentThread``).
private let workerKey: pthread_key_t = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key, nil)
    precondition(created == 0, "pthread_key_create failed: \(created)")
    return key
}()

/// Up to `limit` threads of its own that run submitted work in order.
///
/// For work that must not wait on, or hold, a thread of Swift's global
/// executor: CPU-bound codec jobs, and the HTTP server's request handlers.
/// On Linux the global executor has as many threads as cores (two on a
/// small server) and never preempts a job, so a decode that runs for a
/// second on it holds half the process's async work for that second, and a
/// handler enqueued behind it waits. Threads of their own are time-sliced
/// by the kernel like any other thread.
///
/// Threads start when work arrives and end after `idleTimeout` without
/// work, so an idle instance holds none. Work waits in an unbounded FIFO:
/// callers bound it (``WorkQueue`` admits at most `concurrency` jobs; a
/// server admits at most its connection limit).
public final class WorkerThreads: Sendable {
    private struct State {
        var pending: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0
        var idle = 0
    }

    /// The most threads that run at once.
    public let limit: Int
    /// How long a thread waits for work before it ends.
    public let idleTimeout: Duration
    private let name: String
    /// Called on a thread as it ends, for tests to wait on.
    private let threadEnded: (@Sendable () -> Void)?
    private let condition = NSCondition()
    // Guarded by `condition`; `Lock` is not used so that waiting and
    // signalling share one mutex.
    nonisolated(unsafe) private var state = State()

    /// - Parameters:
    ///   - limit: At most this many threads (at least 1).
    ///   - name: The threads' name, as debuggers and `top -H` show it (Linux
    ///     keeps 15 bytes; best effort).
    ///   - idleTimeout: A thread with no work for this long ends.
    public convenience init(limit: Int, name: String, idleTimeout: Duration = .seconds(2)) {
        self.init(limit: limit, name: name, idleTimeout: idleTimeout, threadEnded: nil)
    }

    /// - Parameter threadEnded: Called on each thread as it ends, after it
    ///   is no longer counted in ``threadCount``.
    init(limit: Int, name: String, idleTimeout: Duration, threadEnded: (@Sendable () -> Void)?) {
        precondition(limit > 0, "WorkerThreads needs at least one thread")
        self.limit = limit
        self.name = name
        self.idleTimeout = idleTimeout
        self.threadEnded = threadEnded
    }

    /// Queues `work`; a thread runs it as soon as one is free.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        state.pending.append(work)
        // A new thread when more work waits than idle threads will take.
        let start = state.pending.count - state.head > state.idle && state.threads < limit
        if start { state.threads += 1 }
        let wake = !start && state.idle > 0
        condition.unlock()
        // Signalled after the unlock, so the thread it wakes does not
        // block at once on the mutex this thread still holds.
        if wake { condition.signal() }
        if start {
            Thread { [self] in
                pthread_setspecific(workerKey, Unmanaged.passUnretained(self).toOpaque())
                Self.nameCurrentThread(name)
                drain()
            }.start()
        }
    }

    /// Runs `job` on one of the threads and returns its result.
    ///
    /// The result crosses over through a ``Lock`` as well as the
    /// continuation: with the continuation alone, ThreadSanitizer reported
    /// the caller's first read of an object `job` made (the origin's
    /// `BodyBytes`) as a race, as it did for TestSupport's `blocking`; the
    /// lock is a handover it sees.
    public func run<T: Sendable>(_ job: @escaping @Sendable () throws -> T) async throws -> T {
        // Replaced by the job's result before the continuation resumes.
        let outcome = Lock<Result<T, any Error>>(.failure(CancellationError()))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            submit {
                let result = Result<T, any Error> { try job() }
                outcome.withLock { $0 = result }
                continuation.resume()
            }
        }
        return try outcome.withLock { $0 }.get()
    }

    /// Threads now started (running or idle).
    public var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.threads
    }

    /// Names the calling thread for debuggers and `top -H`. Not through
    /// Foundation's `Thread.name`, which on Linux does not always reach the
    /// system thread; Glibc's `pthread_setname_np` is not visible to Swift,
    /// so the name goes where the kernel keeps it.
    private static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
            _ = pthread_setname_np(name)
        #elseif os(Linux)
            try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #endif
    }

    /// Whether the calling thread is one of these threads.
    public var isCurrentThread: Bool {
        pthread_getspecific(workerKey) == UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    private func drain() {
        while let work = next() {
            work()
        }
        threadEnded?()
    }

    /// The next piece of work, or `nil` when none came within the idle timeout
    /// (the thread is then no longer counted).
    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        var deadline: Date?  // Read from the clock only when there is no work.
        while state.head == state.pending.count {
            let until = deadline ?? Date(timeIntervalSinceNow: Double(idleTimeout / .milliseconds(1)) / 1000)
            deadline = until
            state.idle += 1
            let signalled = condition.wait(until: until)
            state.idle -= 1
            if !signalled, state.head == state.pending.count {
                state.threads -= 1
                return nil
            }
        }
        let work = state.pending[state.head]
        state.head += 1
        if state.head == state.pending.count {
            state.pending.removeAll(keepingCapacity: state.pending.count <= 64)
            state.head = 0
        } else if state.head > 1024, state.head * 2 > state.pending.count {
            state.pending.removeFirst(state.head)
            state.head = 0
        }
        return work
    }
}

/// As a task executor, for `Task(executorPreference:)`: the task's
/// non-isolated code, and the default actors it calls, run on these threads.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension WorkerThreads: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}

extension WorkerThreads {
    /// The threads the current task prefers, when whoever started it said so
    /// (the HTTP server does for its handlers). Unstructured tasks do not
    /// inherit a task executor preference, but they inherit this, so
    /// ``_Concurrency/Task/onCurrentThreads(priority:_:)`` can start them
    /// on the same threads.
    @TaskLocal public static var current: WorkerThreads?
}

extension Task where Failure == Never {
    /// `Task { … }` on the creating task's ``WorkerThreads/current``, if
    /// any, else on the global executor: work that outlives its creator
    /// (a fetch shared by several requests) stays off the global executor
    /// when its creator was.
    @discardableResult
    public static func onCurrentThreads(
        priority: TaskPriority? = nil, _ operation: sending @escaping @isolated(any) () async -> Success
    ) -> Task<Success, Never> {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let threads = WorkerThreads.current {
            return Task(executorPreference: threads, priority: priority, operation: operation)
        }
        return Task(priority: priority, operation: operation)
    }
}
