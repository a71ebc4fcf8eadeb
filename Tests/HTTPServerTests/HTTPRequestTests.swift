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
}
