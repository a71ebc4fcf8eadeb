import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built origin under work that once escaped its budgets (issue 26,
/// findings 9 and 11), each in a process of its own so that its peak
/// resident memory (`VmHWM`) and CPU time are its own.
@Suite(
    .timeLimit(.suiteBound), .offTheGlobalExecutor,
    .enabled(if: ChildProcess.webpBridgeBinary != nil, "webp-bridge binary not found beside the tests"),
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "peak memory is read from /proc"))
struct OriginWorkBudgetTests {
    static let budgetBytes = 512 << 20
    static let enlarging = "/small.png?imageMogr2/thumbnail/4999x4999!|imageMogr2/thumbnail/4998x4998!"
    static let moderate = "/small.png?imageMogr2/thumbnail/2999x2999!|imageMogr2/thumbnail/2500x2500!"

    /// A running `webp-bridge origin` at its defaults.
    final class RunningOrigin: Sendable {
        let process: Process
        let base: String
        let folder: TemporaryDirectory

        /// - Parameters:
        ///   - files: More files to serve, by name.
        ///   - arguments: More arguments for `origin`.
        init(files: [String: Data] = [:], arguments: [String] = []) async throws {
            folder = try TemporaryDirectory(prefix: "origin-work")
            try PNGEncoder().encode(SyntheticImages.photo(width: 64, height: 48)).write(to: folder.file("small.png"))
            try SyntheticAnimatedWebP.make(canvasWidth: 1000, canvasHeight: 1000, frameCount: 1000)
                .write(to: folder.file("anim.webp"))
            for (name, data) in files { try data.write(to: folder.file(name)) }
            process = Process()
            process.executableURL = ChildProcess.webpBridgeBinary!
            process.arguments = ["origin", "--root", folder.url.path, "--listen", "127.0.0.1:0"] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let firstLine =
                try await output.fileHandleForReading.readThroughFirstLine()
                .split(separator: "\n").first.map(String.init) ?? ""
            base = String(firstLine.dropFirst("listening on ".count))
        }

        func status(_ target: String) async throws -> Int {
            let session = URLSession(configuration: .suiteBounded)
            defer { session.finishTasksAndInvalidate() }
            let (_, response) = try await session.data(from: try #require(URL(string: base + target)))
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }

        /// `VmHWM`, the process's peak resident memory, in bytes.
        var peakBytes: Int {
            get throws {
                let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
                let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
                return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
            }
        }

        /// User and system CPU seconds the process has used.
        var cpuSeconds: Double {
            get throws {
                let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
                // Fields after the command name, which is in parentheses: utime and stime are 14 and 15.
                let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
                return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
            }
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    private static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

    @Test func anEnlargingPipelineStaysWithinTheMemoryBudget() async throws {
        let origin = try await RunningOrigin()
        defer { origin.stop() }
        let status = try await origin.status(Self.enlarging)
        let peak = try origin.peakBytes
        print("4999/4998 pipeline: \(status), origin peak RSS \(Self.mebibytes(peak))")
        #expect(status == 413 || status == 200)
        #expect(peak < Self.budgetBytes, "peak RSS \(Self.mebibytes(peak))")
    }

    @Test func twoEnlargingPipelinesAtOnceStayWithinTheMemoryBudget() async throws {
        let origin = try await RunningOrigin()
        defer { origin.stop() }
        async let first = origin.status(Self.enlarging)
        async let second = origin.status(Self.enlarging)
        let statuses = try await [first, second]
        let peak = try origin.peakBytes
        print("4999/4998 pipeline twice at once: \(statuses), origin peak RSS \(Self.mebibytes(peak))")
        #expect(statuses.allSatisfy { [200, 413, 503].contains($0) })
        #expect(peak < Self.budgetBytes, "peak RSS \(Self.mebibytes(peak))")
    }

    @Test func twoModerateEnlargementsAtOnceAreBothMade() async throws {
        let origin = try await RunningOrigin()
        defer { origin.stop() }
        async let first = origin.status(Self.moderate)
        async let second = origin.status(Self.moderate)
        let statuses = try await [first, second]
        let peak = try origin.peakBytes
        print("2999/2500 pipeline twice at once: \(statuses), origin peak RSS \(Self.mebibytes(peak))")
        #expect(statuses == [200, 200], "two fit the share for work in flight together")
        #expect(peak < Self.budgetBytes, "peak RSS \(Self.mebibytes(peak))")
    }

    /// A progressive JPEG's decoder holds every coefficient of the whole
    /// image whatever size it decodes to: 69 MB for this one at 4:4:4,
    /// twice at once past a 128 MiB budget when they were counted at the
    /// scaled size (a 7000×7000 one peaked at 323 MB under the default
    /// budget). Counted, each is past the share for work in flight.
    @Test func progressiveJPEGsAtOnceStayWithinTheMemoryBudget() async throws {
        let photo = SyntheticImages.photo(width: 3400, height: 3400)
        let jpeg = try JPEGEncoder(options: .init(quality: 85, subsampling: .s444, progressive: true)).encode(photo)
        let origin = try await RunningOrigin(files: ["progressive.jpg": jpeg], arguments: ["--memory-budget", "128M"])
        defer { origin.stop() }
        async let first = origin.status("/progressive.jpg?imageView2/2/w/100/format/webp")
        async let second = origin.status("/progressive.jpg?imageView2/2/w/101/format/webp")
        let statuses = try await [first, second]
        let peak = try origin.peakBytes
        print("3400x3400 progressive JPEG twice at once: \(statuses), origin peak RSS \(Self.mebibytes(peak))")
        #expect(statuses == [413, 413])
        #expect(peak < ChildProcess.peakBound(kilobytes: 128 << 10) * 1024, "peak RSS \(Self.mebibytes(peak))")
    }

    @Test func aThousandFrameAnimationIsRefusedWithinTheWorkBudget() async throws {
        let origin = try await RunningOrigin()
        defer { origin.stop() }
        let before = try origin.cpuSeconds
        let status = try await origin.status("/anim.webp?imageMogr2/thumbnail/500x500")
        let spent = try origin.cpuSeconds - before
        print("1,000-frame 1000x1000 animation: \(status) after \(spent) s of the origin's CPU")
        #expect(status == 413)
    }
}
