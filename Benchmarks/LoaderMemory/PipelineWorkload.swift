import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import WebPBridge

/// `ImagePipeline.image(for:)` against a live `ImageOrigin` on loopback: the
/// whole path a long-running app or bridge takes for each new image —
/// rewrite to the WebP variant, coalescing, bytes cache, loader,
/// completeness check, decode, memory cache.
///
/// The origin serves a folder of small generated JPEGs; request `N` asks for
/// `img<N mod images>.jpg?i=N`. The origin ignores `i=N` (a cache-buster) and
/// answers from its variant cache after the first round, so it stops
/// allocating; the pipeline sees a new cache key every time, so both of its
/// caches fill to their caps and then evict on every request.
final class PipelineWorkload: Workload {
    /// Sources are this big; the variants are scaled to ``variantWidth``.
    static let sourceWidth = 240
    static let sourceHeight = 160
    static let variantWidth = 160

    let summary: String
    private let folder: TemporaryDirectory
    private let cacheFolder: TemporaryDirectory?
    private let server: HTTPServer
    private let base: String
    private let pipeline: ImagePipeline
    private let memoryCache: MemoryCache
    private let dataCache: any DataCaching
    private let dataCacheBytes: Int
    private let sourceImages: Int

    init(options: Options) async throws {
        folder = try TemporaryDirectory(prefix: "loader-memory-origin")
        let encoder = JPEGEncoder(options: .init(quality: 90))
        for index in 0..<options.sourceImages {
            let image = SyntheticImages.photo(width: Self.sourceWidth, height: Self.sourceHeight, seed: index + 1)
            try encoder.encode(image).write(to: folder.file("img\(index).jpg"))
        }
        let origin = try ImageOrigin(configuration: .init(root: folder.url.path))
        var serverConfiguration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        serverConfiguration.threadPoolSize = 1
        server = HTTPServer(configuration: serverConfiguration, handler: origin)
        let endpoint = try await server.start()
        base = endpoint.url

        memoryCache = MemoryCache(capacity: options.memoryCacheBytes)
        dataCacheBytes = options.dataCacheBytes
        switch options.dataCache {
        case .memory:
            cacheFolder = nil
            dataCache = MemoryDataCache(capacity: options.dataCacheBytes)
        case .disk:
            let cacheFolder = try TemporaryDirectory(prefix: "loader-memory-cache")
            self.cacheFolder = cacheFolder
            dataCache = try DiskCache(folder: cacheFolder.url, configuration: .init(capacity: options.dataCacheBytes))
        }
        let loader: any DataLoading =
            switch options.loader {
            case .curl: CurlDataLoader()
            case .urlsession: URLSessionDataLoader()
            }
        let rules = try RewritePreset.configuration(named: "qiniu", host: endpoint.host, width: Self.variantWidth)
        pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: loader, dataCache: dataCache,
                memoryCache: memoryCache, requestTimeout: .seconds(10)))
        sourceImages = options.sourceImages
        summary =
            "pipeline over loader \(options.loader.rawValue): \(options.requests) images (distinct URLs over"
            + " \(options.sourceImages) \(Self.sourceWidth)x\(Self.sourceHeight) JPEG sources, WebP variants"
            + " w/\(Self.variantWidth)), concurrency \(options.concurrency), origin \(base);"
            + " memory cache \(ResidentMemory.format(options.memoryCacheBytes)),"
            + " \(options.dataCache.rawValue) data cache \(ResidentMemory.format(options.dataCacheBytes))"
    }

    func request(_ index: Int) async -> String? {
        let url = URL(string: "\(base)/img\(index % sourceImages).jpg?i=\(index)")!
        do {
            let response = try await pipeline.image(for: url)
            guard response.source == .network, response.isVariant, !response.isFallback else {
                return "\(url): from \(response.source), variant \(response.isVariant), fallback \(response.isFallback)"
            }
            return nil
        } catch {
            return "\(url): \(error)"
        }
    }

    func cacheUsage() -> CacheUsage? {
        let images = memoryCache.usage
        let data: (bytes: Int, count: Int) =
            switch dataCache {
            case let disk as DiskCache: (disk.totalBytes, disk.count)
            case let memory as MemoryDataCache: (memory.totalBytes, memory.count)
            default: (0, 0)
            }
        return CacheUsage(entries: [
            .init(name: "memory cache", bytes: images.bytes, capacity: memoryCache.capacity, count: images.count),
            .init(name: "data cache", bytes: data.bytes, capacity: dataCacheBytes, count: data.count),
        ])
    }

    /// Stops the origin and removes the temporary folders now: `main`
    /// ends with `exit`, which runs no deinitialisers.
    func shutdown() async {
        await server.shutdown()
        for folder in [folder, cacheFolder].compactMap(\.self) {
            try? FileManager.default.removeItem(at: folder.url)
        }
    }
}
