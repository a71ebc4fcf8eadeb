import Foundation
import TestSupport
import TestTraits
import WebPBridge

@testable import HTTPServer

/// Counts what happened to ``BodyBytes`` (responses freed, memory given
/// back) and the answers a handler returned, as their observers hear them;
/// a test waits for a count as an event, never for time.
final class BodyEvents: Sendable {
    private struct State {
        var freed = 0
        var deallocated = 0
        var answered = 0
        var waiters: [(reached: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// The observer of a ``BodyBytes``: `BodyBytes(data, observer: { events.record($0) })`.
    func record(_ event: BodyBytes.Event) {
        update {
            switch event {
            case .responseFreed: $0.freed += 1
            case .deallocated: $0.deallocated += 1
            }
        }
    }

    /// The handler returned a response (it is queued right after, or was).
    func answered() { update { $0.answered += 1 } }

    /// Responses libmicrohttpd freed, and times the memory was given back.
    var counts: (freed: Int, deallocated: Int) { state.withLock { ($0.freed, $0.deallocated) } }

    /// Returns once libmicrohttpd has freed `count` responses.
    func waitForFreed(_ count: Int) async { await wait { $0.freed >= count } }

    /// Returns once the memory was given back.
    func waitForDeallocation() async { await waitForDeallocations(1) }

    /// Returns once the memory was given back `count` times (as many bodies).
    func waitForDeallocations(_ count: Int) async { await wait { $0.deallocated >= count } }

    /// Returns once the handler has answered `count` times.
    func waitForAnswers(_ count: Int) async { await wait { $0.answered >= count } }

    private func update(_ change: @Sendable (inout State) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            change(&state)
            let snapshot = state
            let met = state.waiters.filter { $0.reached(snapshot) }
            state.waiters = state.waiters.filter { !$0.reached(snapshot) }
            return met.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    private func wait(until reached: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state in
                if reached(state) { return true }
                state.waiters.append((reached, continuation))
                return false
            }
            if already { continuation.resume() }
        }
    }
}

/// A pattern no offset of which repeats within 251 bytes, so a shifted,
/// truncated or overwritten body cannot compare equal.
func patterned(_ count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 % 251 &+ $0 / 251) })
}

/// Opens `connections` connections to `port` at once, each running `exchange`
/// on its own thread (the connections block), and returns the sum of what
/// they return: the answers that arrived whole, or -1 from one that saw a
/// wrong one.
func sumOverConnections(
    _ connections: Int, port: Int, _ exchange: @escaping @Sendable (RawHTTPConnection) throws -> Int
) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<connections {
            group.addTask { try await blocking { try exchange(RawHTTPConnection(port: port)) } }
        }
        return try await group.reduce(0, +)
    }
}
