public import Foundation
import TestTraits
import WebPBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program and reports how it ended and, on request, its peak
/// memory, so a test can assert that a decompression bomb was refused before
/// any big allocation.
///
/// Peak memory is measured by GNU `time` (`/usr/bin/time -f %M`), not by
/// `wait4` here: a child spawned from the test runner inherits the runner's
/// high-water mark at `exec`, so only a small intermediate process gives the
/// program's own figure.
public struct ChildProcess {
    /// How a run ended.
    public struct Outcome: Sendable {
        /// The exit status, or `nil` when a signal ended it.
        public var exitStatus: Int32?
        /// The signal that ended it, if any.
        public var signal: Int32?
        public var stdout: String
        public var stderr: String
        /// Peak resident memory in kilobytes, when measured.
        public var peakResidentKilobytes: Int?
    }

    /// The `webp-bridge` binary that `swift test` built next to the test
    /// bundle, or `nil` when it is not there.
    public static var webpBridgeBinary: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for folder in candidates {
            let binary = folder.appendingPathComponent("webp-bridge")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return nil
    }

    /// GNU `time`, which measures peak memory, when installed.
    public static let timeTool: URL? = {
        let url = URL(fileURLWithPath: "/usr/bin/time")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }()

    /// Runs `executable` with `arguments`, waiting at most `timeout` seconds
    /// (then it is killed and reported as ended by `SIGKILL`): by default
    /// the suite's hang bound (``SuiteBound/seconds``), since a child that
    /// does real work (`rewrite-html` on a 48 MB page) took over 300 s, with
    /// nothing hung, both sanitized beside a busy machine and in the debug
    /// build on two cores running the whole suite (killed at 300 s after
    /// writing 61 of its 77 MB).
    ///
    /// - Parameter measuringPeakMemory: run it under ``timeTool`` and report
    ///   its peak resident memory (requires GNU `time`), without
    ///   AddressSanitizer's quarantine (see ``environmentForMeasuring()``).
    public static func run(
        _ executable: URL, _ arguments: [String], timeout: Double = SuiteBound.seconds,
        measuringPeakMemory: Bool = false
    ) throws -> Outcome {
        let folder = try TemporaryDirectory(prefix: "child")
        let memoryPath = folder.file("peak").path
        var executable = executable
        var arguments = arguments
        if measuringPeakMemory {
            guard let timeTool else {
                throw CocoaError(
                    .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "/usr/bin/time is not installed"])
            }
            arguments = ["-f", "%M", "-o", memoryPath, executable.path] + arguments
            executable = timeTool
        }
        let outPath = folder.file("stdout").path
        let errPath = folder.file("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = measuringPeakMemory ? Self.environmentForMeasuring().map { strdup($0) } + [nil] : nil
        defer { for entry in envp ?? [] { free(entry) } }
        var pid: pid_t = 0
        let spawned =
            if let envp {
                posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
            } else {
                posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
            }
        guard spawned == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "posix_spawn failed: \(spawned)"])
        }

        let status = Self.waitForExit(of: pid, killingAfter: timeout)
        let signalled = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F
        return Outcome(
            exitStatus: signalled ? nil : (status >> 8) & 0xFF,
            signal: signalled ? status & 0x7F : nil,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            peakResidentKilobytes: measuringPeakMemory
                ? (try? String(contentsOfFile: memoryPath, encoding: .utf8))
                    .flatMap { Int($0.split(separator: "\n").last ?? "") } : nil)
    }

    /// Waits for `pid` to exit, woken by its exit rather than polling; a
    /// watchdog kills it with SIGKILL once `timeout` seconds pass. The child
    /// is reaped only after the watchdog is disarmed (`waitid` with `WNOWAIT`
    /// first), so the watchdog can never signal a reused pid.
    private static func waitForExit(of pid: pid_t, killingAfter timeout: TimeInterval) -> Int32 {
        let exited = Lock(false)
        let watchdog = DispatchWorkItem {
            exited.withLock { exited in if !exited { kill(pid, SIGKILL) } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        exited.withLock { $0 = true }
        watchdog.cancel()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    /// This process's environment, with `quarantine_size_mb=0` added to
    /// `ASAN_OPTIONS` when it is set (`make test-asan`): the quarantine
    /// keeps freed memory resident (the Makefile asks for 16 MB; a 48 MB
    /// page rewritten with it peaked at 85.4 MB, without it at 55.8 MB), so
    /// a measured child would be held to the sanitizer's bookkeeping, not
    /// to its own use. The child is still checked by AddressSanitizer,
    /// except for use-after-free of memory freed long before.
    static func environmentForMeasuring() -> [String] {
        var environment = ProcessInfo.processInfo.environment
        if let options = environment["ASAN_OPTIONS"] {
            // The last setting of an option wins.
            environment["ASAN_OPTIONS"] = options.isEmpty ? "quarantine_size_mb=0" : options + ":quarantine_size_mb=0"
        }
        return environment.map { "\($0.key)=\($0.value)" }
    }
}
