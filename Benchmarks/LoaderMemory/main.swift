// Fetches many small bodies from a loopback origin through one loader and
// shows whether resident memory stays flat. A benchmark, not a test: run by
// `make bench-loader-memory`.
import Foundation
import HTTPServer
import ImagePipeline

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("loader-memory: \(error)\n\(Options.usage)\n".utf8))
    exit(2)
}

let body = Data((0..<options.bodyBytes).map { UInt8(truncatingIfNeeded: $0 &* 7) })
var serverConfiguration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
serverConfiguration.threadPoolSize = 1
let server = HTTPServer(configuration: serverConfiguration) { _ in
    .data(body, contentType: "image/webp", headers: ["Cache-Control": "max-age=604800"])
}
let endpoint = try await server.start()

let loader: any DataLoading =
    switch options.loader {
    case .curl: CurlDataLoader()
    case .urlsession: URLSessionDataLoader()
    }
print(
    "loader \(options.loader.rawValue): \(options.requests) requests of \(options.bodyBytes) bytes,"
        + " concurrency \(options.concurrency), origin \(endpoint.url)")
if let rss = ResidentMemory.current() { print("          start     RSS \(ResidentMemory.format(rss))") }

let progress = Progress(options: options)
await withTaskGroup(of: Void.self) { group in
    for _ in 0..<options.concurrency {
        group.addTask {
            while let index = progress.claim() {
                let url = URL(string: "\(endpoint.url)/images/\(index % 1000).webp")!
                do {
                    let response = try await loader.load(DataRequest(url: url, timeout: .seconds(10)))
                    let ok = response.statusCode == 200 && response.body.count == options.bodyBytes
                    progress.finished(error: ok ? nil : "HTTP \(response.statusCode), \(response.body.count) bytes")
                } catch {
                    progress.finished(error: "\(error)")
                }
            }
        }
    }
}
await server.shutdown()

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
        options.loader.rawValue, ResidentMemory.format(warm.rss), warm.requests, ResidentMemory.format(last.rss),
        last.requests, growth, Double(last.requests) / seconds, summary.errors))
if let firstError = summary.firstError { print("first error: \(firstError)") }
if summary.done < options.requests { print("stopped by the time limit after \(summary.done) requests") }
if let limit = options.maxGrowth, growth > limit {
    print("FAIL: grew \(String(format: "%.1f", growth))% after warm-up, over the \(limit)% allowed")
    exit(1)
}
