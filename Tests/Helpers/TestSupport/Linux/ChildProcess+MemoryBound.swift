import Foundation

extension ChildProcess {
    /// A peak-memory bound for a built binary of this test run: `kilobytes`,
    /// plus, under a sanitizer, what the sanitizer's runtime alone takes.
    ///
    /// `make test-tsan` and `make test-asan` set `WEBP_BRIDGE_SANITIZER`;
    /// their binaries carry shadow memory and a runtime of tens of
    /// megabytes before doing any work, so a bound such as "a bomb is
    /// refused in under 50 MB" is held to the work on top of that: the peak
    /// of `webp-bridge --help`, measured once per run, is added.
    public static func peakBound(kilobytes: Int) -> Int {
        kilobytes + sanitizerAllowanceKilobytes
    }

    /// Whether this test run's binaries are sanitized (`make test-tsan`,
    /// `make test-asan`): several times slower, so a bound meant for a hang
    /// is raised.
    public static var isSanitized: Bool { ProcessInfo.processInfo.environment["WEBP_BRIDGE_SANITIZER"] != nil }

    /// What a sanitized `webp-bridge --help` peaks at, or 0 without a sanitizer.
    static let sanitizerAllowanceKilobytes: Int = {
        guard isSanitized,
            let binary = webpBridgeBinary,
            let outcome = try? run(binary, ["--help"], measuringPeakMemory: true)
        else { return 0 }
        return outcome.peakResidentKilobytes ?? 0
    }()
}
