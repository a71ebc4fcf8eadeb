import Dispatch
import Foundation
import HTTPServer
import WebPBridge

/// Writes a server's per-request log lines without making its threads wait
/// for the output or spend time on its text: the server's thread only
/// appends the record (``HTTPRequestLog``, a few words) to a list in memory;
/// a thread of its own formats what has gathered and writes it in one
/// `write`, every ``Configuration/flushInterval`` or sooner when a lot has
/// gathered. Formatting a line on the server's thread cost about as much as
/// its lock, its metrics and its routing together on a cached answer.
///
/// A reader slower than the server (a full pipe) blocks only the writing
/// thread; records beyond ``Configuration/maxPendingBytes`` (each charged its
/// target, its address and 96 bytes for the rest of its line and the list's
/// slot) are dropped and the number dropped is logged in their place, so
/// memory stays bounded and requests are never held up by their log.
///
/// Thread-safe: one `Lock` guards the pending records; ``close()`` writes
/// what is left and stops the thread.
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
        var pending: [Pending] = []
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

    /// A record, or a line already written out (``append(_:)-(String)``).
    private enum Pending {
        case record(HTTPRequestLog)
        case line(String)

        /// Appends the entry's line, without a string of its own for a record.
        func append(to text: inout [UInt8]) {
            switch self {
            case .record(let record): record.append(to: &text)
            case .line(let line): text.append(contentsOf: line.utf8)
            }
        }
    }

    /// What a record is charged: its strings, the rest of its line and its slot.
    static func charge(_ record: HTTPRequestLog) -> Int {
        record.target.utf8.count + (record.remoteAddress?.utf8.count ?? 0) + 96
    }

    /// Queues one request's record, formatted as ``HTTPRequestLog/description``
    /// on the writer's thread.
    func append(_ record: HTTPRequestLog) {
        enqueue(.record(record), bytes: Self.charge(record))
    }

    /// Queues one line (a newline is added).
    func append(_ line: String) {
        enqueue(.line(line), bytes: line.utf8.count + 1)
    }

    private func enqueue(_ entry: Pending, bytes: Int) {
        let wakeWriter = state.withLock { state -> Bool in
            guard !state.closing, state.pendingBytes + bytes <= configuration.maxPendingBytes else {
                state.dropped += 1
                return false
            }
            let wasBelow = state.pendingBytes < configuration.eagerFlushBytes
            state.pending.append(entry)
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
            let (entries, dropped, closing) = state.withLock { state -> ([Pending], Int, Bool) in
                defer {
                    state.pending = []
                    state.pendingBytes = 0
                    state.dropped = 0
                }
                return (state.pending, state.dropped, state.closing)
            }
            // Formatted here, outside the lock and off the server's threads.
            // Bytes, made a string once: a string per line or per piece cost more than the rest of logging.
            var bytes: [UInt8] = []
            for entry in entries {
                entry.append(to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            if dropped > 0 { bytes += "… \(dropped) log lines dropped: the output was too slow\n".utf8 }
            if !bytes.isEmpty { output(String(decoding: bytes, as: UTF8.self)) }
            if closing { break }
        }
        stopped.signal()
    }
}
