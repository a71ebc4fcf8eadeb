#if canImport(Darwin)
    internal import Darwin
#elseif canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Mutable state guarded by a lock: the project's one lock type.
///
/// It replaces `Synchronization.Mutex` for two reasons, both measured:
/// - `Mutex` needs iOS 18 / macOS 15, above the floor an app can use;
/// - on Linux `Mutex` is a bare futex that ThreadSanitizer does not see, so
///   every access made under it was reported as a race and TSan's runtime
///   then crashed. This lock is a `pthread_mutex_t` on Linux and an
///   `os_unfair_lock` on Apple platforms; ThreadSanitizer understands both,
///   so a real race is still reported and a guarded access is not.
///
/// The lock is not recursive, and `body` must not call user code that could
/// take the same lock again. Keep the guarded data in `State`: with an empty
/// `State` guarding data outside it, ThreadSanitizer reported an access race
/// inside `withLock` (checked with a deliberate race in a scratch test: a
/// counter in `State` is not reported, an unguarded counter is).
///
/// Thread safety: `@unchecked Sendable` because every access to `state` goes
/// through `withLock`, which holds the platform lock around it.
public final class Lock<State>: @unchecked Sendable {
    #if canImport(Darwin)
        private let platformLock: UnsafeMutablePointer<os_unfair_lock>
    #else
        private let platformLock: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    @usableFromInline var state: State

    /// A lock guarding `initialState`.
    public init(_ initialState: sending State) {
        state = initialState
        platformLock = .allocate(capacity: 1)
        #if canImport(Darwin)
            platformLock.initialize(to: os_unfair_lock())
        #else
            platformLock.initialize(to: pthread_mutex_t())
            // Default attributes cannot fail to initialise a mutex on Linux
            // (EAGAIN/ENOMEM concern only process-shared or robust mutexes).
            let result = pthread_mutex_init(platformLock, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(platformLock)
        #endif
        platformLock.deinitialize(count: 1)
        platformLock.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    ///
    /// - Parameter body: reads or changes the state; keep it short and never
    ///   call out to code that might take this lock again.
    /// - Throws: whatever `body` throws; the lock is released either way.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&state)
    }

    @usableFromInline
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(platformLock)
        #else
            pthread_mutex_lock(platformLock)
        #endif
    }

    @usableFromInline
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(platformLock)
        #else
            pthread_mutex_unlock(platformLock)
        #endif
    }
}
