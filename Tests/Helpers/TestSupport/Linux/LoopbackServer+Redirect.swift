import Foundation
import HTTPServer
import WebPBridge

extension LoopbackServer {
    /// Runs `body` with two servers: `upstream` on 127.0.0.1, whose every
    /// answer is a 302 to the same path on `elsewhere`, and `elsewhere` on
    /// 127.0.0.2 — a host no rule names — which answers `internal` and
    /// counts what reaches it (``requestCount``). Both are shut down
    /// afterwards, whether `body` threw or not.
    public static func withRedirectElsewhere<Result>(
        _ body: (_ upstream: LoopbackServer, _ elsewhere: LoopbackServer) async throws -> Result
    ) async throws -> Result {
        try await with(ClosureHTTPHandler { _ in .text(.ok, "internal") }, host: "127.0.0.2") { elsewhere in
            let redirect = ClosureHTTPHandler { request in
                HTTPResponse(status: .found, headers: ["Location": elsewhere.url(request.path).absoluteString])
            }
            return try await with(redirect) { upstream in try await body(upstream, elsewhere) }
        }
    }
}
