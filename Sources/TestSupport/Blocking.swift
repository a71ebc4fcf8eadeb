import Dispatch

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
