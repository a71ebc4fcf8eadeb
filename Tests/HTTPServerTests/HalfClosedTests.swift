import Foundation
import HTTPServer
import TestSupport
import Testing

extension LiveTests.Limits {
    /// An unfinished head followed by the client's end of stream can never
    /// become a request: the server closes the connection about a second
    /// later (the watchdog's check) instead of holding it for the 30 s idle
    /// timeout, as libmicrohttpd alone does. The client's 10 s read timeout
    /// is what fails the test when the server waits.
    @Test(arguments: ["GET /partial HTTP/1.1\r\nHost: t\r\n", "GET /partial HTT", "\r\n\r\n"])
    func anUnfinishedRequestFromAHalfClosedClientIsClosed(_ head: String) async throws {
        try await withLiveServer(handle: Self.echo) { _, endpoint in
            let closed = try await blocking {
                let connection = try RawHTTPConnection(port: endpoint.port, timeout: 10)
                try connection.write(head)
                connection.finishSending()
                return connection.waitForClose()
            }
            #expect(closed, "the server still held the connection after 10 s")
            #expect(try await Self.probe(endpoint.port) == 200)
        }
    }
}
