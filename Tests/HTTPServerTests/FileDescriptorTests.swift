import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

extension LiveTests {
    /// A file body is sent from a descriptor that is closed on every path:
    /// a whole file, a range, `HEAD` (never opened), a missing file, a
    /// folder, a range outside the file, and a client that leaves before
    /// the body is sent. Counted in `/proc/self/fd` by what each descriptor
    /// names, so other tests' descriptors in the same process do not count.
    @Suite(.timeLimit(.suiteBound), .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    struct FileDescriptors {
        /// Descriptors of this process open on `path`.
        static func descriptors(on path: String) -> Int {
            let folder = "/proc/self/fd"
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return entries.filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == path
            }
            .count
        }

        @Test func everyPathClosesItsDescriptor() async throws {
            let folder = try TemporaryDirectory(prefix: "fd-test")
            let path = folder.file("body.bin").path
            // Larger than the socket buffers, so an abandoning client leaves the body half sent.
            let size = 8 << 20
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: path))
            let handle: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
                switch request.path {
                case "/range":
                    HTTPResponse(status: .partialContent, body: .file(path: path, offset: 10, length: 100))
                case "/missing": .file(path: path + ".missing", contentType: "application/octet-stream")
                case "/folder": .file(path: folder.url.path, contentType: "application/octet-stream")
                case "/outside":
                    HTTPResponse(status: .partialContent, body: .file(path: path, offset: UInt64(size) + 1, length: 5))
                default: .file(path: path, contentType: "application/octet-stream")
                }
            }
            try await withLiveServer(handle: handle) { server, endpoint in
                let port = endpoint.port
                let statuses = try await blocking { () throws -> [Int] in
                    let connection = try RawHTTPConnection(port: port, timeout: 60)
                    var statuses: [Int] = []
                    for round in 0..<50 {
                        for (method, target) in [
                            ("GET", "/range"), ("HEAD", "/whole"), ("GET", "/missing"), ("GET", "/folder"),
                            ("GET", "/outside"),
                        ] {
                            try connection.write("\(method) \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
                            statuses.append(try connection.readResponse(head: method == "HEAD").status)
                        }
                        if round % 10 == 0 {
                            try connection.write("GET /whole HTTP/1.1\r\nHost: t\r\n\r\n")
                            statuses.append(try connection.readResponse().status)
                        }
                    }
                    // Clients that leave with the body half sent.
                    for _ in 0..<20 {
                        let leaving = try RawHTTPConnection(port: port, timeout: 60)
                        try leaving.write("GET /whole HTTP/1.1\r\nHost: t\r\n\r\n")
                    }
                    return statuses
                }
                #expect(Set(statuses) == [206, 200, 404, 500], "\(Set(statuses))")
                await server.waitUntilOpenConnections { $0 == 0 }
                #expect(Self.descriptors(on: path) == 0, "descriptors left open on the served file")
            }
        }
    }
}
