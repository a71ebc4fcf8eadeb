import Foundation
import HTTPServer
import TestSupport
import Testing
import WebPBridge

/// A live origin on 127.0.0.1, port 0, with one route per behaviour the
/// loaders are tested against.
enum OriginServer {
    /// 6 MiB of varied bytes, the "large image".
    static let largeBody: Data = {
        var data = Data(count: 6 << 20)
        data.withUnsafeMutableBytes { raw in
            for index in raw.indices { raw[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        }
        return data
    }()

    /// 64 MiB, for cancelling while the body arrives.
    static let hugeBody = Data(repeating: 0x5A, count: 64 << 20)

    static func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch request.path {
        case "/hello":
            return .data(Data("hello, loader".utf8), contentType: "text/plain", headers: ["X-Origin": "test"])
        case "/missing":
            return .text(.notFound, "no such image")
        case "/large":
            return .data(largeBody, contentType: "application/octet-stream")
        case "/huge":
            return .data(hugeBody, contentType: "application/octet-stream")
        case "/slow":
            // A peer that never answers: the handler waits until the server
            // cancels it, when the client gives up or at shutdown (a stream
            // nobody yields to ends then). Tests learn that the request
            // arrived from `withArrivals`, never from time.
            let (never, held) = AsyncStream<Void>.makeStream()
            defer { held.finish() }
            for await _ in never {}
            return .text(.ok, "too late")
        case "/redirect":
            return HTTPResponse(status: .found, headers: ["Location": "/hello", "X-Hop": "first"])
        case "/echo":
            let tag = request.headers["If-None-Match"] ?? "none"
            return .text(.ok, tag, headers: ["X-Echo-If-None-Match": tag])
        default:
            return .text(.notFound, "unknown route")
        }
    }

    /// Runs `body` with a started origin and always shuts it down.
    static func with<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        try await LoopbackServer.with(ClosureHTTPHandler(handle)) { server in
            try await body(server.baseURL.absoluteString)
        }
    }

    /// Like ``with(_:)``, and `body` also gets the path of every request as
    /// it reaches the origin, before it is answered: a test waits for that
    /// event instead of sleeping and hoping the request got there.
    static func withArrivals<Result>(
        _ body: (String, AsyncStream<String>) async throws -> Result
    ) async throws -> Result {
        let arrivals = AsyncStream<String>.makeStream()
        defer { arrivals.continuation.finish() }
        let handler = ClosureHTTPHandler { request in
            arrivals.continuation.yield(request.path)
            return await handle(request)
        }
        return try await LoopbackServer.with(handler) { server in
            try await body(server.baseURL.absoluteString, arrivals.stream)
        }
    }
}

/// Collects the pieces `onChunk` receives, from any thread.
final class ChunkCollector: Sendable {
    private let state = Lock((data: Data(), pieces: 0))

    func append(_ piece: Data) {
        state.withLock {
            $0.data.append(piece)
            $0.pieces += 1
        }
    }

    var data: Data { state.withLock { $0.data } }
    var pieces: Int { state.withLock { $0.pieces } }
}

/// Runs `body`, expecting it to fail with `kind`; returns the error.
@discardableResult
func expectFailure(
    _ kind: DataLoadingError.Kind, _ body: () async throws(DataLoadingError) -> DataResponse
) async -> DataLoadingError? {
    do {
        let response = try await body()
        Issue.record("expected \(kind), got HTTP \(response.statusCode) with \(response.body.count) bytes")
        return nil
    } catch {
        #expect(error.kind == kind, "\(error.message)")
        #expect(!error.message.isEmpty)
        return error
    }
}

extension DataLoading {
    /// `load` as a `Result`, for unstructured tasks (which cannot carry a
    /// typed error).
    func result(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)? = nil) async
        -> Result<DataResponse, DataLoadingError>
    {
        do { return .success(try await load(request, onChunk: onChunk)) } catch { return .failure(error) }
    }
}
