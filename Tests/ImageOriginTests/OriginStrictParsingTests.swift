import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing

/// The origin on a real socket answers the malformed heads of issue 10 as
/// the server does: `/h.jpg\0.png` is not served as `/h.jpg`, and no
/// request hides behind a body another parser would frame differently.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct OriginStrictParsingTests {
    @Test(arguments: [
        ("NUL in the target", "GET /photo.jpg\0.png HTTP/1.1\r\nHost: o\r\n\r\n", 400),
        ("ESC in the target", "GET /photo.jpg\u{1B}[2J HTTP/1.1\r\nHost: o\r\n\r\n", 400),
        ("two Hosts", "GET /photo.jpg HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("obs-fold", "GET /photo.jpg HTTP/1.1\r\nHost: o\r\nX-A: 1\r\n 2\r\n\r\n", 400),
        ("unknown coding", "GET /photo.jpg HTTP/1.1\r\nHost: o\r\nTransfer-Encoding: br\r\n\r\n", 501),
        (
            "CL with TE",
            "GET /photo.jpg HTTP/1.1\r\nHost: o\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\nGET /photo.jpg HTTP/1.1\r\nHost: o\r\n\r\n", 400
        ),
    ])
    func malformedHeadIsRefusedAndTheConnectionClosed(_ label: String, request: String, status: Int) async throws {
        let fixture = try OriginFixture()
        try await LoopbackServer.with(try fixture.origin()) { server in
            let (response, closed) = try await blocking {
                let connection = try RawHTTPConnection(port: server.port, timeout: 20)
                try connection.write(request)
                let response = try connection.readResponse()
                return (response, connection.waitForClose())
            }
            #expect(response.status == status, "\(label): got \(response.status)")
            #expect(closed, "\(label): the connection stayed open")
        }
    }
}
