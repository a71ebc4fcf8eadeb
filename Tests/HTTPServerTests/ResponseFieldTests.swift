import Foundation
import HTTPServer
import TestSupport
import Testing
import WebPBridge

extension LiveTests {
    /// Every header field a handler gives is sent, or the response is not:
    /// a field libmicrohttpd refuses turns the answer into a counted 500,
    /// never into the same answer without that field.
    @Suite struct ResponseFields {
        /// Sends one GET over a raw connection, so the response is read as
        /// it is on the wire.
        static func get(_ handler: some HTTPHandler, metrics: MetricsRegistry, head: Bool = false) async throws
            -> RawHTTPConnection.Response
        {
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.shutdownGracePeriod = .milliseconds(100)
            let server = HTTPServer(configuration: configuration, handler: handler, metrics: metrics)
            let endpoint = try await server.start()
            do {
                let response = try await blocking {
                    let connection = try RawHTTPConnection(port: endpoint.port)
                    try connection.write("\(head ? "HEAD" : "GET") /x HTTP/1.1\r\nHost: t\r\n\r\n")
                    return try connection.readResponse(head: head)
                }
                await server.shutdown()
                return response
            } catch {
                await server.shutdown()
                throw error
            }
        }

        @Test(arguments: [
            ("X-Split", "a\r\nInjected: 1"), ("X-Split", "a\nInjected: 1"), ("X-Split", "a\rInjected: 1"),
            ("X Space", "1"), ("X-Tab\t", "1"),
        ])
        func refusedFieldGives500AndIsCounted(name: String, value: String) async throws {
            let metrics = MetricsRegistry()
            let handler = ClosureHTTPHandler { _ in
                .text(.ok, "fine", headers: ["Cache-Control": "private", name: value])
            }
            #expect(metrics.value(HTTPServer.refusedResponsesFamily) == 0)
            let response = try await Self.get(handler, metrics: metrics)
            #expect(response.status == 500)
            #expect(response.headers["Injected"] == nil)
            #expect(String(decoding: response.body, as: UTF8.self).contains(name), "\(response.body)")
            #expect(metrics.value(HTTPServer.refusedResponsesFamily) == 1)
            #expect(metrics.render().contains("webpbridge_http_refused_responses_total 1"))
        }

        @Test func refusedFieldGives500ForHEADToo() async throws {
            let metrics = MetricsRegistry()
            let handler = ClosureHTTPHandler { _ in .text(.ok, "fine", headers: ["X-Split": "a\r\nInjected: 1"]) }
            let response = try await Self.get(handler, metrics: metrics, head: true)
            #expect(response.status == 500)
            #expect(metrics.value(HTTPServer.refusedResponsesFamily) == 1)
        }

        /// An empty field value is valid HTTP, which libmicrohttpd refuses
        /// as given: it is sent as optional whitespace, still the empty value.
        @Test func emptyValueIsSentEmpty() async throws {
            let metrics = MetricsRegistry()
            let handler = ClosureHTTPHandler { _ in .text(.ok, "fine", headers: ["X-Empty": "", "X-Full": "1"]) }
            let response = try await Self.get(handler, metrics: metrics)
            #expect(response.status == 200)
            #expect(response.headers["X-Empty"] == "")
            #expect(response.headers["X-Full"] == "1")
            #expect(metrics.value(HTTPServer.refusedResponsesFamily) == 0)
        }

        @Test func acceptedFieldsAreSentAndNothingIsCounted() async throws {
            let metrics = MetricsRegistry()
            let handler = ClosureHTTPHandler { _ in
                .text(.ok, "fine", headers: ["Vary": "Accept", "Cache-Control": "private", "X-Tab": "a\tb"])
            }
            let response = try await Self.get(handler, metrics: metrics)
            #expect(response.status == 200)
            #expect(response.headers["Vary"] == "Accept")
            #expect(response.headers["Cache-Control"] == "private")
            #expect(response.headers["X-Tab"] == "a\tb")
            #expect(metrics.render().contains("webpbridge_http_refused_responses_total 0"))
        }

        /// A response head that would not fit in the connection's memory
        /// beside its request head: libmicrohttpd would close the connection
        /// without a byte; the server answers 500 instead, keeps the
        /// connection, and answers the request pipelined behind it.
        @Test(arguments: [(0, 40_000), (20_000, 20_000), (28_000, 8_000)])
        func headTooLargeForTheConnectionIsA500(requestPad: Int, responsePad: Int) async throws {
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.shutdownGracePeriod = .milliseconds(100)
            let handler = ClosureHTTPHandler { request in
                request.path == "/big"
                    ? HTTPResponse(
                        status: .ok, headers: ["X-Pad": String(repeating: "r", count: responsePad)],
                        body: .data(Data("big".utf8)))
                    : .text(.ok, "small")
            }
            let server = HTTPServer(configuration: configuration, handler: handler)
            let endpoint = try await server.start()
            let responses = try await blocking {
                let connection = try RawHTTPConnection(port: endpoint.port)
                let pad = String(repeating: "q", count: requestPad)
                try connection.write(
                    "GET /big HTTP/1.1\r\nHost: t\r\nX-Q: \(pad)\r\n\r\nGET /small HTTP/1.1\r\nHost: t\r\n\r\n")
                return [try connection.readResponse(), try connection.readResponse()]
            }
            await server.shutdown()
            #expect(responses[0].status == 500)
            #expect(String(decoding: responses[0].body, as: UTF8.self).contains("does not fit"))
            #expect(responses[1].status == 200)
        }

        /// The bound errs high but not far: a head that fits is sent whole.
        @Test(arguments: [(0, 30_000), (16_000, 14_000)])
        func headThatFitsIsSent(requestPad: Int, responsePad: Int) async throws {
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.shutdownGracePeriod = .milliseconds(100)
            let padding = String(repeating: "r", count: responsePad)
            let server = HTTPServer(
                configuration: configuration,
                handler: ClosureHTTPHandler { _ in
                    HTTPResponse(status: .ok, headers: ["X-Pad": padding], body: .data(Data("ok".utf8)))
                })
            let endpoint = try await server.start()
            let response = try await blocking {
                let connection = try RawHTTPConnection(port: endpoint.port)
                let pad = String(repeating: "q", count: requestPad)
                try connection.write("GET /x HTTP/1.1\r\nHost: t\r\nX-Q: \(pad)\r\n\r\n")
                return try connection.readResponse()
            }
            await server.shutdown()
            #expect(response.status == 200)
            #expect(response.headers["X-Pad"]?.count == responsePad)
        }
    }
}
