import ConcurrencySupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` on a thread of its own while every thread of Swift's global
/// executor is held by a task that spins (one per core, as the global
/// executor has on Linux), and lets them go when `body` returns.
///
/// What `body` waits for must therefore not need the global executor: the
/// way to show that a server answers, or a job runs, on threads of its own
/// while CPU-bound work elsewhere in the process keeps the global executor
/// busy. Were it to need it, `body`'s own read times out first. The spinners
/// stop after 60 s whatever happens, so a failing test still ends.
public func whileTheGlobalExecutorIsHeld<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    let width = ProcessInfo.processInfo.activeProcessorCount
    let state = Lock((spinning: 0, released: false))
    let spinners = (0..<width).map { _ in
        Task.detached {
            state.withLock { $0.spinning += 1 }
            let deadline = ContinuousClock.now + .seconds(60)
            while !state.withLock({ $0.released }), ContinuousClock.now < deadline {}
        }
    }
    let result = try await blocking { () throws -> Value in
        defer { state.withLock { $0.released = true } }
        // Other suites may hold the threads first: wait for every spinner.
        let startBy = ContinuousClock.now + .seconds(120)
        while state.withLock({ $0.spinning }) < width, ContinuousClock.now < startBy { usleep(1_000) }
        return try body()
    }
    for spinner in spinners { await spinner.value }
    return result
}
