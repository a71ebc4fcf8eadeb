import Dispatch
import WebPBridge

/// The origin's share of its memory budget for variants being made
/// (``ImageOrigin/MemoryBudget/workInFlightBytes``): each transformation
/// reserves its estimated peak (``ImageTransformer/Cost/peakBytes``)
/// before it decodes anything and gives it back when it ends, so the
/// transformations running at once never hold more than the share.
///
/// A transformation that does not fit beside the others waits for them to
/// give memory back (``reserve(_:)``), in order of arrival, rather
/// than being refused: a quality search holds about a hundred bytes an
/// output pixel, so two large ones need not fit at once. At most
/// ``maxWaiting`` wait (the origin sets one fewer than its transformation
/// threads, so one thread always works while the others wait); beyond that,
/// and for a peak the share could never hold, the answer is at once.
///
/// Quality searches' planes kept for the next search (``keptPlanes``)
/// count against the share too: a reservation is granted only when it fits
/// beside the bytes reserved and the planes kept, and when only the kept
/// planes stand in its way they are freed for it, so keeping them never
/// makes a variant wait or be refused.
///
/// Thread-safe: one `Lock` guards the bytes reserved and the waiting line;
/// a waiter blocks its own thread on a semaphore that ``release(_:)``
/// signals once it has reserved the waiter's bytes for it. The pool of
/// kept planes has its own lock, taken inside this one, never the other
/// way round.
final class WorkInFlight: Sendable {
    private struct Waiter: @unchecked Sendable {
        let bytes: Int
        /// Signalled once the bytes are reserved for this waiter.
        let granted: DispatchSemaphore
    }

    private struct State: WaitableState {
        var reserved = 0
        /// First come, first served: a waiter is granted only when every one before it has been.
        var line: [Waiter] = []
        /// Tests waiting for a count (``waitUntil(_:)``).
        var waiters = StateWaiters<State>()
    }

    /// The share, in bytes.
    let capacityBytes: Int
    /// The most transformations that wait for memory at once.
    let maxWaiting: Int
    /// Planes kept between quality searches, inside the share.
    let keptPlanes: SSIMULACRA2.PlanePool?
    private let state = Lock(State())

    init(capacityBytes: Int, maxWaiting: Int = 0, keeping keptPlanes: SSIMULACRA2.PlanePool? = nil) {
        self.capacityBytes = max(0, capacityBytes)
        self.maxWaiting = max(0, maxWaiting)
        self.keptPlanes = keptPlanes
    }

    /// Whether `bytes` fit beside `reserved`, freeing kept planes when
    /// they alone are in the way. Called under the lock.
    private func makeRoom(for bytes: Int, reserved: Int) -> Bool {
        let free = capacityBytes - reserved
        guard bytes <= free else { return false }
        if let keptPlanes {
            let short = bytes - (free - keptPlanes.keptBytes)
            if short > 0 { keptPlanes.drain(short) }
        }
        return true
    }

    /// Reserves `bytes`, blocking the calling thread behind the
    /// transformations waiting before it until enough has been given back.
    /// Returns `false` at once when `bytes` is more than the whole share,
    /// or when it does not fit now and ``maxWaiting`` wait already.
    func reserve(_ bytes: Int) -> Bool {
        enum Outcome {
            case reserved, refused
            case waiting(DispatchSemaphore)
        }
        let outcome = state.withLockWakingWaiters { state -> Outcome in
            guard bytes <= capacityBytes else { return .refused }
            if state.line.isEmpty, makeRoom(for: bytes, reserved: state.reserved) {
                state.reserved += bytes
                return .reserved
            }
            guard state.line.count < maxWaiting else { return .refused }
            let waiter = Waiter(bytes: bytes, granted: DispatchSemaphore(value: 0))
            state.line.append(waiter)
            return .waiting(waiter.granted)
        }
        switch outcome {
        case .reserved: return true
        case .refused: return false
        case .waiting(let granted):
            granted.wait()
            return true
        }
    }

    /// Gives back bytes reserved by ``reserve(_:)``, and reserves them for
    /// the waiters at the head of the line that now fit, waking each.
    func release(_ bytes: Int) {
        let woken = state.withLockWakingWaiters { state -> [DispatchSemaphore] in
            state.reserved -= bytes
            var woken: [DispatchSemaphore] = []
            while let first = state.line.first, makeRoom(for: first.bytes, reserved: state.reserved) {
                state.reserved += first.bytes
                state.line.removeFirst()
                woken.append(first.granted)
            }
            return woken
        }
        for semaphore in woken { semaphore.signal() }
    }

    /// Bytes reserved now.
    var reservedBytes: Int { state.withLock { $0.reserved } }

    /// Transformations waiting for memory now.
    var waitingCount: Int { state.withLock { $0.line.count } }

    /// Returns once `condition` holds for the bytes reserved and the
    /// number waiting (for tests: they wait on this, not on time).
    func waitUntil(_ condition: @escaping @Sendable ((reserved: Int, waiting: Int)) -> Bool) async {
        await state.wait { condition(($0.reserved, $0.line.count)) }
    }
}
