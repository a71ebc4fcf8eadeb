import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

extension LiveTests {
    /// A request field reaches the handler with its value's bytes exactly as
    /// sent (less the whitespace around it): ASCII, UTF-8 and obs-text alike,
    /// whichever way the server turns them into a field.
    @Suite(.timeLimit(.suiteBound)) struct FieldValueBytes {
        @Test(arguments: [
            ("ASCII", Array("image/webp,*/*;q=0.8".utf8), true),
            ("UTF-8", Array("caf\u{E9} \u{1F600}".utf8), true),
            ("obs-text", [0x61, 0xE9, 0x62], false),
            ("obs-text after ASCII", Array("abcdefghijklmnop".utf8) + [0xFF], false),
        ])
        func valueBytesAreKept(_ label: String, value: [UInt8], isUTF8: Bool) async throws {
            let seen = Lock<HTTPFieldList.Field?>(nil)
            let handle: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
                seen.withLock { $0 = request.headers.fields(named: "X-Value").first }
                return .text(.ok, "ok")
            }
            try await withLiveServer(handle: handle) { _, endpoint in
                var head = Data("GET / HTTP/1.1\r\nHost: t\r\nX-Value: ".utf8)
                head.append(contentsOf: value)
                head.append(contentsOf: Array(" \t\r\nConnection: close\r\n\r\n".utf8))
                let request = head
                let response = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port, timeout: 60)
                    try connection.write(request)
                    return try connection.readResponse()
                }
                #expect(response.status == 200, "\(label)")
            }
            let field = try #require(seen.withLock { $0 }, "\(label)")
            #expect(field.valueBytes == value, "\(label)")
            #expect(field.isUTF8 == isUTF8, "\(label)")
        }
    }
}
