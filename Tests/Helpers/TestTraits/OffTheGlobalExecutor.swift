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
#if compiler(>=6.1)
    public struct OffTheGlobalExecutor: SuiteTrait, TestTrait, TestScoping {
        /// At most this many tests of such suites run at once; the rest wait
        /// their turn in order.
        static let threads = WorkerThreads(limit: 4, name: "test.cpu")

        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            // A task executor preference needs iOS 18 / macOS 15. Below that the
            // test runs on the global executor, as it would without the trait:
            // the trait decides where a test runs, never what it checks.
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                try await withTaskExecutorPreference(Self.threads) { try await function() }
            } else {
                try await function()
            }
        }
    }
#else
    /// Swift 6.0 (Xcode 16.0–16.2) has no `TestScoping`: the trait is
    /// accepted and changes nothing there.
    public struct OffTheGlobalExecutor: SuiteTrait, TestTrait {
        public var isRecursive: Bool { true }
    }
#endif

extension Trait where Self == OffTheGlobalExecutor {
    /// Runs each test on threads of its own (see ``OffTheGlobalExecutor``).
    public static var offTheGlobalExecutor: Self { Self() }
}

extension TimeLimitTrait.Duration {
    /// Every suite's bound: 10 minutes, 60 under AddressSanitizer and 180
    /// under ThreadSanitizer (`WEBP_BRIDGE_SANITIZER`, set by `make
    /// test-asan` and `make test-tsan`), which run the same work several
    /// times slower. The bound counts from a test's start, and the tests
    /// run side by side: on two cores the whole suite under TSan passed
    /// 60 minutes, so tests still waiting their turn for a core hit it.
    /// A bound ends a hang; it is never a timing assertion.
    public static var suiteBound: Self {
        switch ProcessInfo.processInfo.environment["WEBP_BRIDGE_SANITIZER"] {
        case nil: .minutes(10)
        case "thread": .minutes(180)
        default: .minutes(60)
        }
    }
}
