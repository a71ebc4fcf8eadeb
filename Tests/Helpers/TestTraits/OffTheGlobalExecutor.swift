import Foundation
public import Testing
import WebPBridge

/// Runs each test of a suite on threads of their own rather than on Swift's
/// global executor.
///
/// For suites whose tests are CPU-bound and synchronous (conformance sums,
/// SSIM, whole demo sites, fuzz replays). On Linux the global executor has
/// one thread per core and never preempts: two such tests on it stop every
/// other suite's tasks (their waits, their clients, their coalesced
/// fetches) for as long as they run, which under a sanitizer is minutes.
/// On threads of their own the kernel time-slices them with everything else.
public struct OffTheGlobalExecutor: SuiteTrait, TestTrait, TestScoping {
    /// At most this many tests of such suites run at once; the rest wait
    /// their turn in order.
    static let threads = WorkerThreads(limit: 4, name: "test.cpu")

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(Self.threads) { try await function() }
    }
}

extension Trait where Self == OffTheGlobalExecutor {
    /// Runs each test on threads of its own (see ``OffTheGlobalExecutor``).
    public static var offTheGlobalExecutor: Self { Self() }
}

extension TimeLimitTrait.Duration {
    /// Every suite's bound: 10 minutes, or 60 under a sanitizer
    /// (`WEBP_BRIDGE_SANITIZER`, set by `make test-tsan` and `make
    /// test-asan`), which runs the same work several times slower. A bound
    /// ends a hang; it is never a timing assertion.
    public static var suiteBound: Self {
        .minutes(ProcessInfo.processInfo.environment["WEBP_BRIDGE_SANITIZER"] == nil ? 10 : 60)
    }
}
