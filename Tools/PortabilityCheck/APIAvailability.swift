/// An API that needs a newer OS than some floor, and the token sequences
/// that find its uses in blanked code.
///
/// Versions come from the declarations: the standard library writes
/// `@available(SwiftStdlib X, *)`, and swiftlang/swift's
/// `utils/availability-macros.def` maps SwiftStdlib 5.5 to iOS 15.0 /
/// macOS 12.0, 5.7 to iOS 16.0 / macOS 13.0, 5.9 to iOS 17.0 / macOS 14.0,
/// 6.0 to iOS 18.0 / macOS 15.0 and 6.2 to iOS 26.0 / macOS 26.0. Foundation
/// and `os` versions are from Apple's documentation pages of each symbol.
package struct APIAvailability: Sendable {
    /// What the report names (`Mutex (Synchronization)`).
    package var name: String
    /// Token sequences, any of which is a use (`["Atomic", "<"]`, `[".", "wholeMatch", "(", "of", ":"]`).
    package var patterns: [[String]]
    /// The first OS version with the API, per platform.
    package var introduced: [ApplePlatform: OSVersion]

    /// Creates a table entry.
    package init(name: String, patterns: [[String]], introduced: [ApplePlatform: OSVersion]) {
        self.name = name
        self.patterns = patterns
        self.introduced = introduced
    }

    private static func both(_ iOS: OSVersion, _ macOS: OSVersion) -> [ApplePlatform: OSVersion] {
        [.iOS: iOS, .macOS: macOS]
    }

    /// The table the check uses. Approximate by design: a pattern is a token
    /// sequence, not a resolved symbol, so a type of the project's own named
    /// `Mutex` would be reported too (rename it, or guard it).
    package static let standard: [APIAvailability] = [
        // stdlib/public/Synchronization/Mutex/Mutex.swift: @available(SwiftStdlib 6.0, *).
        APIAvailability(
            name: "Mutex (Synchronization)", patterns: [["Mutex"]], introduced: both(OSVersion(18, 0), OSVersion(15, 0))
        ),
        // stdlib/public/Synchronization/Atomics/Atomic.swift, AtomicLazyReference.swift: SwiftStdlib 6.0.
        APIAvailability(
            name: "Atomic (Synchronization)", patterns: [["Atomic", "<"], ["Atomic", "("], ["AtomicLazyReference"]],
            introduced: both(OSVersion(18, 0), OSVersion(15, 0))),
        // swift-experimental-string-processing (_StringProcessing): Regex and its String
        // algorithms are @available(SwiftStdlib 5.7, *); so is a regex literal's type.
        APIAvailability(
            name: "Regex (_StringProcessing)",
            patterns: [
                ["Regex", "<"], ["Regex", "("], ["#/"], [".", "wholeMatch", "(", "of", ":"],
                [".", "firstMatch", "(", "of", ":"], [".", "matches", "(", "of", ":"],
            ],
            introduced: both(OSVersion(16, 0), OSVersion(13, 0))),
        // stdlib/public/core/Duration.swift, ContinuousClock.swift, SuspendingClock.swift,
        // Task.sleep(for:) in Concurrency/TaskSleepDuration.swift: SwiftStdlib 5.7.
        APIAvailability(
            name: "Duration and clocks",
            patterns: [["Duration"], ["ContinuousClock"], ["SuspendingClock"], [".", "sleep", "(", "for", ":"]],
            introduced: both(OSVersion(16, 0), OSVersion(13, 0))),
        // stdlib/public/Observation/Sources/Observation: @available(SwiftStdlib 5.9, *).
        APIAvailability(
            name: "Observation",
            patterns: [["@Observable"], ["ObservationRegistrar"], ["withObservationTracking"]],
            introduced: both(OSVersion(17, 0), OSVersion(14, 0))),
        // stdlib/public/Concurrency/DiscardingTaskGroup.swift: @available(SwiftStdlib 5.9, *).
        APIAvailability(
            name: "discarding task groups",
            patterns: [["withDiscardingTaskGroup"], ["withThrowingDiscardingTaskGroup"]],
            introduced: both(OSVersion(17, 0), OSVersion(14, 0))),
        // stdlib/public/core/InlineArray.swift: @available(SwiftStdlib 6.2, *).
        APIAvailability(
            name: "InlineArray", patterns: [["InlineArray"]], introduced: both(OSVersion(26, 0), OSVersion(26, 0))),
        // stdlib/public/core/Span/Span.swift: @available(SwiftCompatibilitySpan 5.0, *), back-deployed
        // to iOS 12.2 / macOS 10.14.4 (Swift 5.0's OSes) when built with Swift 6.2 (Xcode 26). What it
        // needs is that compiler, not an OS: the table lists the OS floor, so it never fires above iOS 12.2.
        APIAvailability(
            name: "Span", patterns: [["Span", "<"], ["RawSpan"], ["MutableSpan"], ["MutableRawSpan"]],
            introduced: both(OSVersion(12, 2), OSVersion(10, 14, 4))),
        // Foundation: URLSession.bytes(for:delegate:) / bytes(from:delegate:): iOS 15.0, macOS 12.0.
        APIAvailability(
            name: "URLSession.bytes", patterns: [[".", "bytes", "(", "for", ":"], [".", "bytes", "(", "from", ":"]],
            introduced: both(OSVersion(15, 0), OSVersion(12, 0))),
        // Foundation: the FormatStyle API (Date.formatted(_:), FormatStyle): iOS 15.0, macOS 12.0.
        APIAvailability(
            name: "formatted(_:) (FormatStyle)", patterns: [[".", "formatted", "("]],
            introduced: both(OSVersion(15, 0), OSVersion(12, 0))),
        // Foundation: URL(filePath:), appending(path:), appending(component:), URL.temporaryDirectory:
        // iOS 16.0, macOS 13.0.
        APIAvailability(
            name: "URL path API (filePath:, appending(path:))",
            patterns: [
                ["URL", "(", "filePath", ":"], [".", "appending", "(", "path", ":"],
                [".", "appending", "(", "component", ":"], ["URL", ".", "temporaryDirectory"],
            ],
            introduced: both(OSVersion(16, 0), OSVersion(13, 0))),
        // stdlib/public/Concurrency/Executor.swift (`TaskExecutor`, `UnownedTaskExecutor`,
        // `asUnownedTaskExecutor`), TaskExecutorPreference.swift (`withTaskExecutorPreference`) and
        // Task+TaskExecutor.swift (`Task(executorPreference:)`, `Task.detached(executorPreference:)`):
        // all @available(SwiftStdlib 6.0, *) (SE-0417).
        APIAvailability(
            name: "task executors (SE-0417)",
            patterns: [
                ["TaskExecutor"], ["UnownedTaskExecutor"], ["asUnownedTaskExecutor"], ["withTaskExecutorPreference"],
                ["executorPreference", ":"], ["globalConcurrentExecutor"],
            ],
            introduced: both(OSVersion(18, 0), OSVersion(15, 0))),
        // os: OSAllocatedUnfairLock: iOS 16.0, macOS 13.0.
        APIAvailability(
            name: "OSAllocatedUnfairLock", patterns: [["OSAllocatedUnfairLock"]],
            introduced: both(OSVersion(16, 0), OSVersion(13, 0))),
    ]
}

/// A module an Apple product must not import outside a guard.
package struct GuardedModule: Sendable {
    /// The module name.
    package var module: String
    /// Why, and what to write instead.
    package var reason: String
    /// The floor from which the import is fine unguarded, or `nil` if never.
    package var allowedFrom: [ApplePlatform: OSVersion]?

    /// Creates a table entry.
    package init(module: String, reason: String, allowedFrom: [ApplePlatform: OSVersion]? = nil) {
        self.module = module
        self.reason = reason
        self.allowedFrom = allowedFrom
    }

    /// The modules checked.
    package static let standard: [GuardedModule] = [
        GuardedModule(
            module: "Glibc",
            reason: "glibc exists only on Linux; guard it with #if canImport(Glibc) (Darwin on Apple)"),
        GuardedModule(module: "Musl", reason: "musl exists only on Linux; guard it with #if canImport(Musl)"),
        GuardedModule(
            module: "FoundationNetworking",
            reason: "swift-corelibs-foundation only (URLSession is in Foundation on Apple platforms); "
                + "guard it with #if canImport(FoundationNetworking)"),
        GuardedModule(
            module: "FoundationXML",
            reason: "swift-corelibs-foundation only; guard it with #if canImport(FoundationXML)"),
        GuardedModule(
            module: "Synchronization",
            reason: "Mutex/Atomic need iOS 18 / macOS 15; guard the import with #if canImport(Synchronization) "
                + "and the uses with #available, or use the project's Lock",
            allowedFrom: [.iOS: OSVersion(18, 0), .macOS: OSVersion(15, 0)]),
    ]
}
