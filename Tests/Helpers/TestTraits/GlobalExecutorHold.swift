import Foundation
import WebPBridge

/// The global executor could not be held: other work kept its threads busy
/// through every attempt.
public struct GlobalExecutorBusy: Error, CustomStringConvertible {
    public var description: String {
        "could not hold every thread of the global executor: other work kept them busy"
    }
}

/// Runs `body` on a thread of its own while every thread of Swift's global
/// executor is held by a task that spins (one per core, as the global
/// executor has on Linux), and lets them go when `body` returns.
///
/// What `body` waits for must therefore not need the global executor: the
/// way to show that a server answers, or a job runs, on threads of its own
/// while CPU-bound work elsewhere in the process keeps the global executor
/// busy. Were it to need it, `body`'s own read times out first.
///
/// Other suites run beside this one and need those threads too, so the
/// hold is all or nothing: spinners that have started wait for the rest at
/// most 200 ms on the first attempt, twice as long on each next one (up to
/// 60 s), then every one lets go and the attempt is made again at once
/// (the released threads take the work queued behind the spinners first)
/// — for 10 minutes, or 30 under a sanitizer, then
/// ``GlobalExecutorBusy``. (Sanitized suites beside a busy machine kept
/// attempts of up to 10 s from succeeding for 10 minutes: a job of another
/// suite can hold a thread that long.) The spinners stop after 120 s
/// whatever happens, so a failing body still ends.
public func whileTheGlobalExecutorIsHeld<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    let sanitized = ProcessInfo.processInfo.environment["WEBP_BRIDGE_SANITIZER"] != nil
    let giveUpAt = ContinuousClock.now + .seconds(sanitized ? 1800 : 600)
    var window = 0.2
    while ContinuousClock.now < giveUpAt {
        if let value = try await holdOnce(body, window: window) { return value }
        window = min(window * 2, 60)
        try Task.checkCancellation()
    }
    throw GlobalExecutorBusy()
}

/// One attempt: `body`'s value, or `nil` when not every spinner started
/// within `window` seconds.
private func holdOnce<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value, window: Double
) async throws -> Value? {
    let width = ProcessInfo.processInfo.activeProcessorCount
    let state = Lock((spinning: 0, released: false))
    // Signalled by each spinner that joins, so the holder waits on arrivals, not a poll.
    let arrivals = NSCondition()
    let spinners = (0..<width).map { _ in
        Task.detached {
            let joined = state.withLock { state -> Bool in
                guard !state.released else { return false }
                state.spinning += 1
                return true
            }
            guard joined else { return }
            arrivals.withLock { arrivals.broadcast() }
            let deadline = ContinuousClock.now + .seconds(120)
            while !state.withLock({ $0.released }), ContinuousClock.now < deadline {}
        }
    }
    let result = try await blocking { () throws -> Value? in
        defer { state.withLock { $0.released = true } }
        // A spinner counts itself before it signals, and the holder checks the
        // count while holding `arrivals`, so no arrival is missed.
        let startBy = Date(timeIntervalSinceNow: window)
        arrivals.lock()
        while state.withLock({ $0.spinning }) < width {
            guard arrivals.wait(until: startBy) || state.withLock({ $0.spinning }) >= width else {
                arrivals.unlock()
                return nil
            }
        }
        arrivals.unlock()
        return try body()
    }
    for spinner in spinners { await spinner.value }
    return result
}
