import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// libcurl that could not be set up gives every load a typed error with
/// libcurl's message; it never crashes and never sends a request.
@Suite(.timeLimit(.suiteBound))
struct CurlSetupFailureTests {
    /// `CURLE_FAILED_INIT`, what `curl_global_init` returns when it fails.
    static let failedInit: UInt32 = 2
    static let plainAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"

    @Test func failedGlobalInitFailsTheFirstTransfer() async throws {
        let upstream = try RawHTTPListener(answer: Self.plainAnswer)
        defer { upstream.stop() }
        let loader = CurlDataLoader(configuration: .init(), globalInitCode: Self.failedInit)
        let error = await #expect(throws: DataLoadingError.self) {
            try await loader.load(DataRequest(url: upstream.url("/x")))
        }
        #expect(error?.kind == .networkFailure)
        #expect(error?.message.hasPrefix("curl_global_init: ") == true, "\(String(describing: error))")
        #expect(upstream.heads.isEmpty, "the upstream received \(upstream.heads)")
    }

    @Test func successfulGlobalInitLoads() async throws {
        let upstream = try RawHTTPListener(answer: Self.plainAnswer)
        defer { upstream.stop() }
        let loader = CurlDataLoader(configuration: .init(), globalInitCode: 0)
        let response = try await loader.load(DataRequest(url: upstream.url("/x")))
        #expect(response.statusCode == 200)
        #expect(response.body == Data("ok".utf8))
    }
}
