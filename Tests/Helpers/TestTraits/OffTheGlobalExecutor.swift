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

/// How long a test may run before it is ended as hung: 30 minutes, 120
/// under AddressSanitizer and 240 under ThreadSanitizer
/// (`WEBP_BRIDGE_SANITIZER`, set by `make test-asan` and `make test-tsan`),
/// which run the same work several times slower. The bound counts from a
/// test's start, and the tests run side by side: a test that waits for one
/// of ``OffTheGlobalExecutor``'s threads, or for a core, is counted while it
/// waits. On two cores, corpus suites of a few minutes each alone (the
/// origin's quality sums, the never-bigger sums, the demo's site and chain,
/// `rewrite-html`'s big page) passed 10 minutes side by side with the rest,
/// on CI and in fresh clones here; the whole suite under TSan passed 60
/// minutes. A bound ends a hang; it is never a timing assertion.
public enum SuiteBound {
    /// The bound in minutes.
    public static var minutes: Int {
        switch ProcessInfo.processInfo.environment["WEBP_BRIDGE_SANITIZER"] {
        case nil: 30
        case "thread": 240
        default: 120
        }
    }

    /// The bound in seconds, for a time limit a test hands to the code it
    /// drives (a client's request timeout), so that limit never ends a test
    /// the bound would let finish: under TSan one request of the demo's
    /// client, for its animated GIF's variant, waited past the client's
    /// own 60 s.
    public static var seconds: Double { Double(minutes * 60) }
}

extension TimeLimitTrait.Duration {
    /// Every suite's bound (``SuiteBound``).
    public static var suiteBound: Self { .minutes(SuiteBound.minutes) }
}
