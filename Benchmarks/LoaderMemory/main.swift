import Foundation
// Makes many requests against a loopback origin — through one loader, or
// through the whole image pipeline — and shows whether resident memory stays
// flat. A benchmark, not a test: run by `make bench-loader-memory` and
// `make bench-pipeline-memory`.
import WebPBridge

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("loader-memory: \(error)\n\(Options.usage)\n".utf8))
    exit(2)
}

let workload: any Workload
do {
    workload =
        switch options.path {
        case .loader: try await LoaderWorkload(options: options)
        case .pipeline: try await PipelineWorkload(options: options)
        }
} catch {
    FileHandle.standardError.write(Data("loader-memory: cannot start: \(error)\n".utf8))
    exit(1)
}
print(workload.summary)
if let rss = ResidentMemory.currentBytes { print("          start     RSS \(ResidentMemory.format(rss))") }

let progress = Progress(options: options) { workload.cacheUsage() }
await withTaskGroup(of: Void.self) { group in
    for _ in 0..<options.concurrency {
        group.addTask {
            while let index = progress.claim() {
                progress.finished(error: await workload.request(index))
            }
        }
    }
}
await workload.shutdown()

let summary = progress.summary
guard let warm = summary.samples.first(where: { $0.requests == options.warmUp }),
    let last = summary.samples.last, last.requests > warm.requests
else {
    print("not enough requests finished to compare (\(summary.done) done)")
    exit(1)
}
let growth = Double(last.rss - warm.rss) / Double(warm.rss) * 100
let seconds = Double(last.elapsed.components.seconds) + Double(last.elapsed.components.attoseconds) / 1e18
print(
    String(
        format: "%@: RSS %@ after warm-up (%d) → %@ after %d requests: %+.1f%%; %.0f requests/s; %d errors",
        options.path == .pipeline ? "pipeline" : options.loader.rawValue, ResidentMemory.format(warm.rss),
        warm.requests, ResidentMemory.format(last.rss), last.requests, growth, Double(last.requests) / seconds,
        summary.errors))
if let firstError = summary.firstError { print("first error: \(firstError)") }
if summary.done < options.requests { print("stopped by the time limit after \(summary.done) requests") }
var failed = false
if let caches = warm.caches, !caches.isFull {
    // Growth measured while a cache is still filling says nothing about leaks.
    let percent = Int(CacheUsage.fullFraction * 100)
    print("FAIL: the caches were not at \(percent)% of their caps after warm-up (\(caches)); raise --warm-up")
    failed = true
}
if let limit = options.maxGrowth, growth > limit {
    print("FAIL: grew \(String(format: "%.1f", growth))% after warm-up, over the \(limit)% allowed")
    failed = true
}
if summary.errors > 0 && options.path == .pipeline {
    print("FAIL: \(summary.errors) requests failed")
    failed = true
}
exit(failed ? 1 : 0)
