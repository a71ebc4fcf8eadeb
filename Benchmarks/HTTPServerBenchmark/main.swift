// A throughput target for wrk, not a test:
//   swift build -c release --product HTTPServerBenchmark
//   .build/release/HTTPServerBenchmark [port] [threads] [immediate|async] [body bytes] [bytes|data] &
//   wrk -t2 -c32 -d5s http://127.0.0.1:PORT/
// The body is 12 bytes by default, like PLATFORM-NOTES' measurements; give
// a size (e.g. 88000, a cached variant) to measure what bodies cost. `immediate` (the
// default) answers from the handler's immediateResponse(to:), on the server's
// thread; `async` goes the full asynchronous path: suspend, a Swift task runs
// the handler, resume. The body is `BodyBytes` (`bytes`, the default: what a
// cache hit sends, without a copy), `Data` (`data`: copied per response) or a
// file in the temporary folder (`file`: opened per response, sent with sendfile).
import Foundation
import HTTPServer

let arguments = Array(CommandLine.arguments.dropFirst())
var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: arguments.first.flatMap(Int.init) ?? 0)
if arguments.count > 1, let threads = Int(arguments[1]) { configuration.threadPoolSize = threads }
let immediate = arguments.count > 2 ? arguments[2] != "async" : true

let bodySize = arguments.count > 3 ? Int(arguments[3]) : nil
let body = bodySize.map { Data((0..<$0).map { UInt8(truncatingIfNeeded: $0) }) } ?? Data("hello world\n".utf8)
let response: HTTPResponse
switch arguments.count > 4 ? arguments[4] : "bytes" {
case "data": response = .data(body, contentType: "text/plain")
case "file":
    let path = NSTemporaryDirectory() + "/http-server-benchmark-\(getpid()).body"
    try body.write(to: URL(fileURLWithPath: path))
    response = .file(path: path, contentType: "text/plain")
default: response = .bytes(BodyBytes(body), contentType: "text/plain")
}
let handler = ClosureHTTPHandler(immediate: { _ in immediate ? response : nil }, { _ in response })
let server = HTTPServer(configuration: configuration, handler: handler)
let endpoint = try await server.start()
print("listening on \(endpoint.url) with \(configuration.threadPoolSize) threads, \(immediate ? "immediate" : "async")")
try await Task.sleep(for: .seconds(24 * 3600))
