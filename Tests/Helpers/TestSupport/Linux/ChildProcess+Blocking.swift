public import Foundation
import TestTraits

extension ChildProcess {
    /// ``run(_:_:timeout:measuringPeakMemory:)`` on a thread of its own (see
    /// ``blocking(_:)``): waiting for the child never holds a worker of the
    /// queue that runs the servers' handler tasks.
    public static func runOffThePool(
        _ executable: URL, _ arguments: [String], timeout: Double = SuiteBound.seconds,
        measuringPeakMemory: Bool = false
    ) async throws -> Outcome {
        try await blocking {
            try run(executable, arguments, timeout: timeout, measuringPeakMemory: measuringPeakMemory)
        }
    }
}
