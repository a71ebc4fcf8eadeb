import Foundation
import HTTPServer
import TestSupport
import Testing

extension LiveTests {
    /// The handler's tasks run on the server's own threads
    /// (`Configuration.handlerThreads`), so a server answers while CPU-bound
    /// work elsewhere in the process holds every thread of Swift's global
    /// executor. On the global executor, the request below waited until
    /// that work was done (the live suites timed out with "0 bytes
    /// received" while the codec suites ran).
    @Suite struct HandlerThreads {
        @Test func anAsyncHandlerAnswersWhileTheGlobalExecutorIsHeld() async throws {
            let handle: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
                await Task.yield()
                return .text(.ok, "answered \(request.path)")
            }
            try await withLiveServer(handle: handle) { _, endpoint in
                let response = try await whileTheGlobalExecutorIsHeld {
                    let connection = try RawHTTPConnection(port: endpoint.port, timeout: 30)
                    try connection.write("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
                    return try connection.readResponse()
                }
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "answered /held\n")
            }
        }

        @Test func handlerThreadsOutsideTheirRangeAreRefused() async {
            var configuration = HTTPServer.Configuration()
            configuration.handlerThreads = 0
            #expect(throws: HTTPServerError.self) { try configuration.validate() }
            configuration.handlerThreads = 2
            #expect(throws: Never.self) { try configuration.validate() }
        }
    }
}
