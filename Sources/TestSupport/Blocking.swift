import Dispatch
public import Foundation

/// Runs blocking work (sockets, ``RawHTTPConnection``, `curl`) on a Dispatch thread, so it never
/// occupies one of the few threads of Swift's cooperative pool that the
/// server's handler tasks need.
public func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result<Value, any Error> { try work() })
        }
    }
}

extension ChildProcess {
    /// ``run(_:_:timeout:measuringPeakMemory:)`` on a Dispatch thread: the
    /// wait for the child never holds one of the cooperative pool's threads,
    /// which other suites' server handlers need (a test that converts for
    /// seconds on the pool made live tests beside it time out).
    public static func runOffThePool(
        _ executable: URL, _ arguments: [String], timeout: Double = 300, measuringPeakMemory: Bool = false
    ) async throws -> Outcome {
        try await blocking {
            try run(executable, arguments, timeout: timeout, measuringPeakMemory: measuringPeakMemory)
        }
    }
}
