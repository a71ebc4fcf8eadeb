import Foundation
import TestSupport
import TestTraits
import Testing

/// The built `webp-bridge` binary on hostile input: a clear line and exit 1,
/// never a crash, and decompression bombs refused before any big allocation
/// (peak RSS, measured by GNU time, under 50 MB).
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
    .enabled(if: ChildProcess.webpBridgeBinary != nil, "webp-bridge binary not found beside the tests"),
    .enabled(if: ChildProcess.timeTool != nil, "GNU time (/usr/bin/time) measures peak memory; make deps installs it"),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct BinaryTests {
    static let refused = [
        "broken.png", "broken_data_stream.png", "decompression_bomb.gif", "decompression_bomb_extents.gif",
        "png_decompression_dos.png",
    ]

    @Test(arguments: refused)
    func brokenFilesExitOneWithOneLineInLittleMemory(_ file: String) async throws {
        let binary = try #require(ChildProcess.webpBridgeBinary)
        let folder = try TemporaryDirectory()
        let outcome = try await ChildProcess.runOffThePool(
            binary, ["convert", try Corpus.url("edge/\(file)").path, folder.file("out.png").path],
            measuringPeakMemory: true)
        #expect(outcome.signal == nil)
        #expect(outcome.exitStatus == 1)
        #expect(outcome.stderr.hasPrefix("error: ") && outcome.stderr.split(separator: "\n").count == 1)
        let peak = try #require(outcome.peakResidentKilobytes)
        #expect(peak < ChildProcess.peakBound(kilobytes: 50 * 1024), "\(file): peak RSS \(peak) KB")
    }

    @Test func usageErrorsExitTwo() async throws {
        let binary = try #require(ChildProcess.webpBridgeBinary)
        let outcome = try await ChildProcess.runOffThePool(binary, ["convert", "--quality"])
        #expect(outcome.exitStatus == 2)
        #expect(outcome.stderr.hasPrefix("error: option '--quality' needs a value"))
    }

    @Test func convertsAConformanceVectorToTheReferenceBytes() async throws {
        let binary = try #require(ChildProcess.webpBridgeBinary)
        let folder = try TemporaryDirectory()
        let outcome = try await ChildProcess.runOffThePool(
            binary,
            ["convert", try Corpus.url("webp-conformance/lossless_vec_1_0.webp").path, folder.file("o.pam").path])
        #expect(outcome.exitStatus == 0)
        let sums = try String(contentsOf: Corpus.url("webp-conformance/libwebp_tests.md5"), encoding: .utf8)
        let expected = try #require(sums.split(separator: "\n").first { $0.hasSuffix(" lossless_vec_1_0.webp.pam") })
        #expect(MD5.hexDigest(try Data(contentsOf: folder.file("o.pam"))) == expected.prefix(32))
    }
}
