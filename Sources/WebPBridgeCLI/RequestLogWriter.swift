import ConcurrencySupport
import Dispatch
import Foundation

/// Writes a server's per-request log lines without making its threads wait
/// for the output: the server's thread only appends a line to a buffer in
/// memory; a thread of its own writes what has gathered, in one `write`,
/// every ``Configuration/flushInterval`` or sooner when a lot has gathered.
///
/// A reader slower than the server (a full pipe) blocks only the writing
/// thread; lines beyond ``Configuration/maxPendingBytes`` are dropped and
/// the number dropped is logged in their place, so memory stays bounded and
/// requests are never held up by their log.
///
/// Thread-safe: one `Lock` guards the pending text; ``close()`` writes what
/// is left and stops the thread.
final class RequestLogWriter: Sendable {
    struct Configuration: Sendable {
        /// How long a line may wait before it is written; 50 ms by default.
        var flushInterval: Duration = .milliseconds(50)
        /// Text waiting to be written beyond which lines are dropped; 1 MiB.
        var maxPendingBytes = 1 << 20
        /// Pending text that wakes the writer before the interval; 64 KiB.
        var eagerFlushBytes = 64 << 10
    }

    private struct State {
        var pending = ""
        var pendingBytes = 0
        var dropped = 0
        var closing = false
    }

    private let configuration: Configuration
    private let output: @Sendable (String) -> Void
    private let state = Lock(State())
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the writing thread.
    /// - Parameters:
    ///   - configuration: Timing and bounds.
    ///   - output: Writes text (e.g. ``CommandIO/writeOutput``); called on
    ///     the writer's thread only, never under the lock.
    init(configuration: Configuration = Configuration(), output: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.output = output
        let thread = Thread { [self] in writeUntilClosed() }
        thread.name = "request-log"
        thread.start()
    }

    /// Queues one line (a newline is added).
    func append(_ line: String) {
        let bytes = line.utf8.count + 1
        let wakeWriter = state.withLock { state -> Bool in
            guard !state.closing, state.pendingBytes + bytes <= configuration.maxPendingBytes else {
                state.dropped += 1
                return false
            }
            let wasBelow = state.pendingBytes < configuration.eagerFlushBytes
            state.pending += line
            state.pending += "\n"
            state.pendingBytes += bytes
            return wasBelow && state.pendingBytes >= configuration.eagerFlushBytes
        }
        if wakeWriter { wake.signal() }
    }

    /// Writes every line queued so far and stops the writing thread; lines
    /// appended later are dropped. Blocks until the output has taken them.
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closing = true }
            return !state.closing
        }
        guard first else { return }
        wake.signal()
        stopped.wait()
    }

    private func writeUntilClosed() {
        let interval = configuration.flushInterval.components
        let nanoseconds = Int(interval.seconds) * 1_000_000_000 + Int(interval.attoseconds / 1_000_000_000)
        while true {
            _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
            let (text, closing) = state.withLock { state -> (String, Bool) in
                var text = state.pending
                if state.dropped > 0 {
                    text += "… \(state.dropped) log lines dropped: the output was too slow\n"
                    state.dropped = 0
                }
                state.pending = ""
                state.pendingBytes = 0
                return (text, state.closing)
            }
            if !text.isEmpty { output(text) }
            if closing { break }
        }
        stopped.signal()
    }
}
