import HTTPServer
import TestTraits
import Testing

@Suite(.timeLimit(.suiteBound)) struct HTTPRequestTests {
    @Test(
        arguments: [
            ("/a.jpg", "/a.jpg", nil),
            ("/a.jpg?imageView2/2/w/750", "/a.jpg", "imageView2/2/w/750"),
            ("/a.jpg?", "/a.jpg", ""),
            ("/x?y?z", "/x", "y?z"),
            ("http://img.example.com/a.jpg?w=1", "http://img.example.com/a.jpg", "w=1"),
        ] as [(String, String, String?)])
    func splitsTargetIntoPathAndQuery(target: String, path: String, query: String?) {
        let request = HTTPRequest(target: target)
        #expect(request.path == path)
        #expect(request.query == query)
    }

    @Test func decodesPercentEscapesOnlyOnRequest() {
        let request = HTTPRequest(target: "/a%20b/%2e%2e/c.jpg")
        #expect(request.path == "/a%20b/%2e%2e/c.jpg")
        #expect(request.decodedPath == "/a b/../c.jpg")
        #expect(HTTPRequest(target: "/bad%zz").decodedPath == nil)
    }

    @Test func statusKnowsItsClassAndPhrase() {
        #expect(HTTPStatus.notFound.description == "404 Not Found")
        #expect(HTTPStatus.contentTooLarge.isClientError)
        #expect(HTTPStatus.serviceUnavailable.isServerError)
        #expect(!HTTPStatus.notModified.allowsBody)
        #expect(HTTPStatus(code: 299).reasonPhrase == "")
    }

    @Test func logLineNamesMethodTargetStatusAndBytes() {
        let log = HTTPRequestLog(
            method: .get, target: "/a.jpg", status: .ok, bodyBytes: 1234, duration: .microseconds(800),
            remoteAddress: "127.0.0.1", completed: true)
        #expect(log.description == "127.0.0.1 GET /a.jpg 200 1234 0.8ms")
    }

    /// What a log writer gathers with `append(to:)` reads as the lines' descriptions.
    @Test func appendedLogLinesReadAsTheirDescriptions() {
        let records = [
            HTTPRequestLog(
                method: .get, target: "/é\u{1B}[2J\\.jpg", status: nil, bodyBytes: 0, duration: .seconds(12),
                remoteAddress: nil, completed: false),
            HTTPRequestLog(
                method: .head, target: "/", status: .notFound, bodyBytes: 18_446_744_073_709_551_615,
                duration: .zero, remoteAddress: "::1", completed: true),
        ]
        var bytes: [UInt8] = []
        for record in records {
            record.append(to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        #expect(String(decoding: bytes, as: UTF8.self) == records.map { $0.description + "\n" }.joined())
        #expect(records[0].description == "- GET /é\\x1B[2J\\x5C.jpg - 0 12000.0ms aborted")
        #expect(records[1].description == "::1 HEAD / 404 18446744073709551615 0.0ms")
    }
}
