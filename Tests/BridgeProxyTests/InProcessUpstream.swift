import ConcurrencySupport
import Foundation
import HTTPFields
import HTTPServer
import ImageDelivery
import ImagePipeline

/// A `DataLoading` that answers from an `HTTPHandler` in-process — the
/// upstream of the bridge under test, without sockets — records what it was
/// asked, and can be told to misbehave for chosen URLs.
final class InProcessUpstream: DataLoading, Sendable {
    enum Fault: Sendable {
        /// Answer with this status instead.
        case status(Int)
        /// Answer 200 with an HTML page.
        case html
        /// Cut the body in half.
        case truncate
        /// Throw this transport error.
        case fail(DataLoadingError.Kind)
    }

    private struct State {
        var requests: [DataRequest] = []
        var faults: [(fragment: String, fault: Fault)] = []
    }

    private let handler: any HTTPHandler
    private let state = Lock(State())

    init(_ handler: any HTTPHandler) {
        self.handler = handler
    }

    /// Makes requests whose URL contains `fragment` misbehave (every URL for `""`).
    func inject(_ fault: Fault, whereURLContains fragment: String = "") {
        state.withLock { $0.faults.append((fragment, fault)) }
    }

    /// Every request received, in order.
    var requests: [DataRequest] { state.withLock { $0.requests } }

    func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        let url = request.url.absoluteString
        let fault = state.withLock { state -> Fault? in
            state.requests.append(request)
            return state.faults.first { $0.fragment.isEmpty || url.contains($0.fragment) }?.fault
        }
        if case .fail(let kind) = fault { throw DataLoadingError(kind, "\(kind) (injected)") }
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        var headers = request.headers
        if let host = request.url.host { headers.add(name: "Host", value: host) }
        let response = await handler.handle(
            HTTPRequest(
                method: HTTPMethod(rawValue: request.method), target: target, headers: headers,
                body: request.body ?? Data()))
        var body: Data
        switch response.body {
        case .empty: body = Data()
        case .data(let data): body = data
        case .bytes(let bytes): body = bytes.data
        case .file(let path, _, _): body = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        }
        if request.method == "HEAD" { body = Data() }
        var status = response.status.code
        switch fault {
        case .status(let code): status = code
        case .html: body = Data("<html><body>variant failed</body></html>".utf8)
        case .truncate: body = body.prefix(body.count / 2)
        default: break
        }
        guard body.count <= request.maxBodyBytes else {
            throw DataLoadingError(.tooLarge, "body over \(request.maxBodyBytes) bytes")
        }
        onChunk?(body)
        var fields = response.headers
        if fields["content-length"] == nil {
            switch response.body {
            case .data(let data): fields["content-length"] = String(data.count)
            case .bytes(let bytes): fields["content-length"] = String(bytes.count)
            case .empty, .file: break
            }
        }
        return DataResponse(url: request.url, statusCode: status, headers: fields, body: body)
    }
}
