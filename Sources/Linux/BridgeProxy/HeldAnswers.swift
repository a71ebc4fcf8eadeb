import Foundation
import HTTPServer
import WebPBridge

/// The bytes of passed-through answers the bridge holds, from the first
/// byte the upstream sends until the server has sent the answer and freed
/// its memory (``BridgeProxy/MemoryBudget/passthroughBodyBytes``). Without
/// this bound, every answer being received or sent to a slow client was
/// held whole: 16 clients that did not read a 60 MiB answer took the
/// bridge from 36 MiB to 1,077 MiB of resident memory under the default
/// 256 MiB budget (an adversarial review).
///
/// Thread-safe: the count is a ``BodyBudget``, the server's own for request bodies.
final class HeldAnswers: Sendable {
    private let budget: BodyBudget

    init(capacityBytes: Int) {
        budget = BodyBudget(limit: max(0, capacityBytes))
    }

    /// The most bytes held at once.
    var capacityBytes: Int { budget.limit }

    /// A new answer's charge, empty.
    func charge() -> Charge { Charge(budget) }

    /// One answer's bytes, charged as they arrive and given back when the
    /// charge is freed: kept alive by the body it becomes (``body(_:)``)
    /// until the server has sent it.
    final class Charge: Sendable {
        private let budget: BodyBudget
        private let state = Lock<(bytes: Int, refused: Bool)>((0, false))

        fileprivate init(_ budget: BodyBudget) {
            self.budget = budget
        }

        deinit { budget.release(state.withLock { $0.bytes }) }

        /// Charges `count` more bytes. `false` once they do not fit beside
        /// the answers held now, and for every call after.
        func add(_ count: Int) -> Bool {
            state.withLock { state in
                guard !state.refused, budget.reserve(count) else {
                    state.refused = true
                    return false
                }
                state.bytes += count
                return true
            }
        }

        /// Charges what `total` bytes need beyond those charged so far.
        /// `false` when they do not fit, or did not before.
        func settle(total: Int) -> Bool {
            let more = state.withLock { max(0, total - $0.bytes) }
            return more == 0 ? !wasRefused : add(more)
        }

        /// Whether the answer stopped fitting.
        var wasRefused: Bool { state.withLock { $0.refused } }

        /// `data`, charged already, as a body that holds the charge until
        /// the server frees it.
        func body(_ data: Data) -> BodyBytes {
            BodyBytes(data) { withExtendedLifetime(self) {} }
        }
    }
}
