import WebPBridge

/// Holds every caller of ``arrive()`` until `count` of them have arrived,
/// then lets them all through: a test waits for "all of them are running at
/// once" as an event, not by sleeping.
final class Barrier: Sendable {
    private struct State {
        var arrived = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let count: Int
    private let state = Lock(State())

    init(count: Int) {
        self.count = count
    }

    /// Returns once `count` callers, this one included, have arrived.
    func arrive() async {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.arrived += 1
                state.waiting.append(continuation)
                guard state.arrived >= count else { return [] }
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in released { waiter.resume() }
        }
    }

    /// How many callers have arrived so far.
    var arrivals: Int { state.withLock { $0.arrived } }
}
