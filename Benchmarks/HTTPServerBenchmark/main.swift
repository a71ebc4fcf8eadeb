// A throughput target for wrk, not a test:
//   swift build -c release --product HTTPServerBenchmark
//   .build/release/HTTPServerBenchmark [port] [threads] &
//   wrk -t2 -c32 -d5s http://127.0.0.1:PORT/
// Every request goes the full path: suspend, a Swift task runs the handler,
// resume. The body is 12 bytes, like PLATFORM-NOTES' measurements.
import Foundation
import HTTPServer

let arguments = CommandLine.arguments.dropFirst()
var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: arguments.first.flatMap(Int.init) ?? 0)
if let threads = arguments.dropFirst().first.flatMap(Int.init) { configuration.threadPoolSize = threads }

let body = Data("hello world\n".utf8)
let server = HTTPServer(configuration: configuration) { _ in
    .data(body, contentType: "text/plain")
}
let endpoint = try await server.start()
print("listening on \(endpoint.url) with \(configuration.threadPoolSize) threads")
try await Task.sleep(for: .seconds(24 * 3600))
