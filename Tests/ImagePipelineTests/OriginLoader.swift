import Foundation
import HTTPServer
import ImageCodecs
import ImageOrigin
import ImagePipeline
import Synchronization
import TestSupport

/// A `DataLoading` that answers from an `ImageOrigin` handler in-process
/// (same code as the live origin, no sockets), counts what it served, and can
/// be told to misbehave for chosen URLs.
final class OriginLoader: DataLoading, Sendable {
    enum Fault: Sendable {
        case status(Int)
        case html
        case truncate
        case delay(Duration)
    }

    let origin: ImageOrigin
    private let state = Mutex<(requests: [String], faults: [String: Fault], cancelled: Int)>(([], [:], 0))

    init(origin: ImageOrigin) {
        self.origin = origin
    }

    /// Makes requests whose URL contains `fragment` misbehave.
    func inject(_ fault: Fault, whereURLContains fragment: String) {
        state.withLock { $0.faults[fragment] = fault }
    }

    var requests: [String] { state.withLock { $0.requests } }
    /// Loads that were cancelled while in flight.
    var cancelledCount: Int { state.withLock { $0.cancelled } }

    func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        let url = request.url.absoluteString
        let fault = state.withLock { state -> Fault? in
            state.requests.append(url)
            return state.faults.first { url.contains($0.key) }?.value
        }
        if case .delay(let duration) = fault {
            do {
                try await Task.sleep(for: duration)
            } catch {
                state.withLock { $0.cancelled += 1 }
                throw DataLoadingError(.cancelled, "cancelled")
            }
            if duration >= request.timeout { throw DataLoadingError(.timedOut, "timed out after \(request.timeout)") }
        }
        if Task.isCancelled { throw DataLoadingError(.cancelled, "cancelled") }
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        var headers = HTTPHeaders()
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        let response = await origin.handle(HTTPRequest(target: target, headers: headers))
        var body: Data
        switch response.body {
        case .empty: body = Data()
        case .data(let data): body = data
        case .file(let path, _, _): body = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        }
        var status = response.status.code
        switch fault {
        case .status(let code): status = code
        case .html: body = Data("<html><body>error</body></html>".utf8)
        case .truncate: body = body.prefix(body.count / 2)
        default: break
        }
        onChunk?(body)
        var fields: [String: String] = [:]
        for field in response.headers { fields[field.name] = field.value }
        return DataResponse(url: request.url, statusCode: status, headers: fields, body: body)
    }
}

/// A folder of JPEG and PNG originals served by an origin at `img.test`,
/// and a pipeline rewriting with the Qiniu preset.
struct PipelineFixture {
    let folder: TemporaryDirectory
    let origin: ImageOrigin
    let loader: OriginLoader

    init() throws {
        folder = try TemporaryDirectory(prefix: "pipeline")
        try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 1200, height: 800))
            .write(to: folder.file("photo.jpg"))
        try PNGEncoder().encode(SyntheticImages.photo(width: 300, height: 200, alpha: true))
            .write(to: folder.file("logo.png"))
        origin = try ImageOrigin(configuration: .init(root: folder.url.path))
        loader = OriginLoader(origin: origin)
    }

    /// No bytes cache unless a test asks for one, so every fetch is visible.
    func pipeline(
        diskCache: (any DataCaching)? = nil, width: Int? = 750, now: @escaping @Sendable () -> Date = { Date() },
        timeout: Duration = .seconds(30)
    ) throws -> ImagePipeline {
        let rewriting = try RewritePreset.configuration(named: "qiniu", host: "img.test", width: width)
        return ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rewriting), dataLoader: loader, dataCache: diskCache,
                memoryCache: MemoryCache(capacity: 64 << 20), requestTimeout: timeout, now: now))
    }

    static let photo = URL(string: "http://img.test/photo.jpg")!
    static let logo = URL(string: "http://img.test/logo.png")!
}

import URLRewriting
