public import Foundation
import WebPBridge

/// Runs blocking work (sockets, ``RawHTTPConnection``, child processes) on a
/// thread of its own, and resumes the caller when it is done.
///
/// Not on Dispatch: on Linux, Swift's global executor and
/// `DispatchQueue.global()` share one root queue, whose worker threads are
/// few. A worker blocked in `recv` or `waitpid` keeps its slot, and while
/// other tests keep the cores busy the queue starts no other worker, so the
/// handler tasks of every server in the process wait: live tests then time
/// out with "0 bytes received" although nothing is wrong with the server.
///
/// The result passes through a ``Lock``: ThreadSanitizer does not see the
/// continuation's hand-off from a thread outside Dispatch as an ordering,
/// and reported the caller's first use of an object made in `work` as a race.
public func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    let outcome = Lock<Result<Value, any Error>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            let result = Result<Value, any Error> { try work() }
            outcome.withLock { $0 = result }
            continuation.resume()
        }.start()
    }
    return try outcome.withLock { $0! }.get()
}

extension FileHandle {
    /// Reads (on a thread of its own) until a whole first line has arrived
    /// or the stream ends; returns everything read, which may go past the
    /// first line.
    public func readThroughFirstLine() async throws -> String {
        try await blocking { [self] in
            var text = ""
            while !text.contains("\n") {
                let chunk = availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
    }
}
