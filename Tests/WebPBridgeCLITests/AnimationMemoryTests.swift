import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `webp-bridge convert` on animations far larger decoded than encoded: the
/// built binary converts frame by frame, so its peak resident memory (GNU
/// time) stays at a few frames whatever the frame count, and an output
/// format that cannot hold the canvas is refused from the header.
@Suite(
    .timeLimit(.suiteBound), .offTheGlobalExecutor,
    .enabled(if: ChildProcess.webpBridgeBinary != nil, "webp-bridge binary not found beside the tests"),
    .enabled(if: ChildProcess.timeTool != nil, "GNU time (/usr/bin/time) measures peak memory; make deps installs it"))
struct AnimationMemoryTests {
    /// 1,000 frames of 1000×1000: 4 GB decoded all at once, a few MB per frame streamed.
    @Test func thousandFrameAnimationConvertsToAPNGInUnder200MB() async throws {
        let binary = try #require(ChildProcess.webpBridgeBinary)
        let folder = try TemporaryDirectory()
        let input = folder.file("many.webp")
        try SyntheticAnimatedWebP.make(canvasWidth: 1000, canvasHeight: 1000, frameCount: 1000).write(to: input)
        let output = folder.file("many.apng")
        let outcome = try await ChildProcess.runOffThePool(
            binary, ["convert", input.path, output.path], measuringPeakMemory: true)
        #expect(outcome.exitStatus == 0, "\(outcome.stderr)")
        let peak = try #require(outcome.peakResidentKilobytes)
        #expect(peak < ChildProcess.peakBound(kilobytes: 200 * 1024), "peak RSS \(peak) KB")
        let info = try ImageInfo(Data(contentsOf: output))
        #expect(info.format == .apng)
        #expect(info.frames == 1000)
        #expect(info.width == 1000 && info.height == 1000)
    }

    /// A 245×65537 canvas cannot be WebP (16,383 pixels a side): refused before any frame is decoded.
    @Test func canvasTallerThanWebPAllowsIsRefusedFromTheHeader() async throws {
        let binary = try #require(ChildProcess.webpBridgeBinary)
        let folder = try TemporaryDirectory()
        let input = folder.file("tall.webp")
        try SyntheticAnimatedWebP.make(canvasWidth: 245, canvasHeight: 65_537, frameCount: 40).write(to: input)
        let outcome = try await ChildProcess.runOffThePool(
            binary, ["convert", input.path, folder.file("tall-out.webp").path], measuringPeakMemory: true)
        #expect(outcome.exitStatus == 1)
        #expect(outcome.stderr.contains("16,383"), "\(outcome.stderr)")
        let peak = try #require(outcome.peakResidentKilobytes)
        #expect(peak < ChildProcess.peakBound(kilobytes: 50 * 1024), "peak RSS \(peak) KB")
        #expect(!FileManager.default.fileExists(atPath: folder.file("tall-out.webp").path))
    }
}
