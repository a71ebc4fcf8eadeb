import Foundation
import HTTPServer

/// The whole run: set up, alternate the rounds, print the report.
enum PipelineBenchmark {
    /// - Returns: `false` when `--check` is given and a bar was missed.
    static func run(_ options: Options) async throws -> Bool {
        let loadAtStart = SystemLoad.average()
        let fixture = try await BenchmarkFixture(options: options)
        let runner = try await RoundRunner(fixture: fixture, options: options)
        let variantBytes = fixture.variants.reduce(0) { $0 + $1.count }
        print("pipeline-benchmark: ImagePipeline vs the codec alone, one process, one run")
        print(
            "sources   \(fixture.photos.origin), JPEG q\(SourcePhotos.quality),"
                + " served by ImageOrigin at \(fixture.endpoint.url)")
        print(
            "variants  ?\(fixture.processing): \(fixture.variants.count) WebPs, "
                + String(format: "%.2f MB", Double(variantBytes) / 1e6)
                + String(
                    format: "; the origin made them before timing (%.2f s, not measured)", fixture.originEncodeSeconds))
        print(
            "passes    \(runner.passCount) images each, concurrency \(options.concurrency), CurlDataLoader,"
                + " up to \(options.rounds) rounds alternating pipeline and codec-only passes;"
                + " the origin shares this process and its cores")
        print("")

        let start = ContinuousClock.now
        var results: [RoundResult] = []
        for round in 1...options.rounds {
            if round > 1 && ContinuousClock.now - start > options.timeLimit {
                print("time limit reached after \(round - 1) rounds")
                break
            }
            results.append(try await runner.run(round: round))
        }
        await fixture.shutdown()

        let report = Report(options: options, fixture: fixture, passCount: runner.passCount, results: results)
        for line in report.lines() { print(line) }
        print("")
        print(
            "\(results.count) rounds in " + String(format: "%.1f s", Seconds.since(start))
                + "; load average \(loadAtStart) at start, \(SystemLoad.average()) at end"
                + " (on a shared machine the absolute figures are noisy: read the ratios)")
        return report.barsMet || !options.check
    }
}
