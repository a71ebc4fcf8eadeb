import Foundation
import HTTPServer
import WebPBridge

/// `DataLoading.load` of a fixed body from a bare HTTPServer: the loader
/// alone, nothing else allocated per request.
final class LoaderWorkload: Workload {
    let summary: String
    private let server: HTTPServer
    private let base: String
    private let loader: any DataLoading
    private let bodyBytes: Int

    init(options: Options) async throws {
        let body = Data((0..<options.bodyBytes).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.threadPoolSize = 1
        server = HTTPServer(configuration: configuration) { _ in
            .data(body, contentType: "image/webp", headers: ["Cache-Control": "max-age=604800"])
        }
        base = try await server.start().url
        loader =
            switch options.loader {
            case .curl: CurlDataLoader()
            case .urlsession: URLSessionDataLoader()
            }
        bodyBytes = options.bodyBytes
        summary =
            "loader \(options.loader.rawValue): \(options.requests) requests of \(options.bodyBytes) bytes,"
            + " concurrency \(options.concurrency), origin \(base)"
    }

    func request(_ index: Int) async -> String? {
        let url = URL(string: "\(base)/images/\(index % 1000).webp")!
        do {
            let response = try await loader.load(DataRequest(url: url, timeout: .seconds(10)))
            let ok = response.statusCode == 200 && response.body.count == bodyBytes
            return ok ? nil : "HTTP \(response.statusCode), \(response.body.count) bytes"
        } catch {
            return "\(error)"
        }
    }

    func cacheUsage() -> CacheUsage? { nil }

    func shutdown() async { await server.shutdown() }
}
