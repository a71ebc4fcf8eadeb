import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import WebPBridge

/// A live `ImageOrigin` on 127.0.0.1:0 over a temporary folder of JPEG
/// photos, one shared `CurlDataLoader` (the pipeline's default loader on
/// Linux), the Qiniu rewrite rules, and the WebP variants' bytes as the
/// pipeline receives them.
final class BenchmarkFixture: Sendable {
    let photos: SourcePhotos
    let endpoint: HTTPServer.Endpoint
    let loader: CurlDataLoader
    let rewriter: Rewriter
    /// The WebP variant of each photo, exactly as the origin sends it.
    let variants: [Data]
    /// Pixels of each decoded variant.
    let variantPixels: [Int]
    /// The processing the rewriter appends, for the report.
    let processing: String
    /// Wall time the origin took to make every variant, before any timing.
    let originEncodeSeconds: Double

    private let folder: TemporaryDirectory
    private let server: HTTPServer

    init(options: Options) async throws {
        photos = try SourcePhotos(limit: options.images, synthetic: options.synthetic)
        folder = try TemporaryDirectory(prefix: "pipeline-benchmark-origin")
        for photo in photos.photos { try photo.jpeg.write(to: folder.file(photo.name)) }
        server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
            handler: try ImageOrigin(configuration: .init(root: folder.url.path)))
        endpoint = try await server.start()
        loader = CurlDataLoader()
        rewriter = try Rewriter(
            configuration: RewritePreset.configuration(named: "qiniu", host: endpoint.host, width: options.width))

        // Pre-warm: the origin encodes each variant once and keeps it, so the
        // timed network path is fetch + decode, not the origin's encode.
        let unused = URL(string: "\(endpoint.url)/\(photos.photos[0].name)")!
        processing = rewriter.rewrite(unused).url.query ?? ""
        let warmer = ImagePipeline(
            configuration: .init(rewriter: rewriter, dataLoader: loader, dataCache: nil, memoryCache: nil))
        let start = ContinuousClock.now
        var variants: [Data] = []
        for photo in photos.photos {
            let response = try await warmer.data(for: URL(string: "\(endpoint.url)/\(photo.name)?warm=1")!)
            guard response.format == .webp, response.isVariant, !response.isFallback else {
                throw BenchmarkError("\(photo.name): the origin answered \(response.format), not a WebP variant")
            }
            variants.append(response.data)
        }
        originEncodeSeconds = Seconds.since(start)
        self.variants = variants
        let decoder = ImageDecoder()
        variantPixels = try variants.map { try decoder.decode($0).firstFrame.pixelCount }
    }

    /// The original URL of photo `index` (mod the count), made distinct by
    /// `query` (a cache-buster the origin ignores and the pipeline keys on).
    func url(photo index: Int, query: String) -> URL {
        URL(string: "\(endpoint.url)/\(photos.photos[index % photos.photos.count].name)?\(query)")!
    }

    /// A new pipeline with the default loader, these rules, and these caches.
    func pipeline(dataCache: (any DataCaching)?, memoryCache: MemoryCache?) -> ImagePipeline {
        ImagePipeline(
            configuration: .init(rewriter: rewriter, dataLoader: loader, dataCache: dataCache, memoryCache: memoryCache)
        )
    }

    /// WebP bytes of `count` images of a pass (image `i` is photo `i` mod the count).
    func passBytes(_ count: Int) -> Int { (0..<count).reduce(0) { $0 + variants[$1 % variants.count].count } }

    func shutdown() async { await server.shutdown() }
}

/// A run that cannot go on: what went wrong, in one line.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
