#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long one pass took: on the wall clock, and in CPU time of the whole
/// process (every thread: the pipeline's, the loader's, the origin's).
///
/// On a shared machine the wall time mostly says how much of the cores the
/// process was given; the CPU time says what the work cost, and moves far
/// less with other people's builds. Nothing else runs in the process
/// between passes, so the difference of two readings is the pass's.
struct PassTime {
    var wall: Double
    var cpu: Double

    /// Runs `body` and measures it.
    static func measure(_ body: () async throws -> Void) async rethrows -> PassTime {
        let cpuStart = processCPUSeconds()
        let start = ContinuousClock.now
        try await body()
        return PassTime(wall: Seconds.since(start), cpu: processCPUSeconds() - cpuStart)
    }

    #if canImport(Glibc)
        /// Glibc imports `RUSAGE_SELF` as an enum case, not the `Int32` `getrusage` takes.
        private static let selfWho = RUSAGE_SELF.rawValue
    #else
        private static let selfWho = RUSAGE_SELF
    #endif

    /// User plus system CPU seconds of this process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(selfWho, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
