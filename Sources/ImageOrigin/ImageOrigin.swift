import Foundation
public import HTTPServer
import ImageCodecs

/// The image origin: serves a folder of images over HTTP and makes variants
/// on request with Qiniu's grammar (`?imageView2/…`, `?imageMogr2/…`, `|`
/// pipelines, style suffixes), negotiating WebP by `Accept` when asked —
/// the CDN's side of the contract, on one machine.
///
/// A handler: `handle(_:)` takes a request value and returns a response
/// value, so tests call it without sockets. Thread-safe: the variant cache,
/// work queue and metrics each guard their own state.
public final class ImageOrigin: HTTPHandler {
    public let configuration: Configuration
    /// Counters and histograms served at `/metrics`.
    public let metrics = MetricsRegistry()
    let files: FileResolver
    let transformer: ImageTransformer
    let variants: VariantCache<Variant>
    let queue: WorkQueue

    /// A transformed image as served.
    struct Variant: Sendable {
        var data: Data
        var format: ImageFormat
    }

    /// - Throws: ``FileResolverError`` when the root is not a folder.
    public init(configuration: Configuration) throws(FileResolverError) {
        self.configuration = configuration
        files = try FileResolver(root: configuration.root)
        transformer = ImageTransformer(configuration: configuration.transformer)
        variants = VariantCache(capacity: configuration.variantCacheBytes)
        queue = WorkQueue(
            concurrency: max(1, configuration.maxConcurrentTransforms), queueLimit: configuration.maxQueuedTransforms)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let response = await route(request)
        record(response, for: request)
        return response
    }

    private func route(_ request: HTTPRequest) async -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return .text(.methodNotAllowed, "only GET and HEAD are served", headers: ["Allow": "GET, HEAD"])
        }
        switch request.path {
        case "/healthz": return .text(.ok, "ok")
        case "/metrics": return .data(Data(renderMetrics().utf8), contentType: MetricsRegistry.contentType)
        default: break
        }
        let target: Target
        switch parseTarget(request) {
        case .target(let parsed): target = parsed
        case .answer(let response): return response
        }
        let file: FileResolver.File
        switch files.resolve(target.encodedPath) {
        case .success(let found): file = found
        case .failure(.forbidden): return .text(.forbidden, "path leaves the served folder")
        case .failure(.notFound): return .text(.notFound, "no such image")
        }
        return await serve(file, target: target, request: request)
    }

    /// What a request asks for: which file, and which transformation.
    struct Target {
        var encodedPath: String
        var pipeline: ProcessingPipeline?
        /// Identifies the transformation in cache keys and ETags.
        var transformationKey: String
    }

    /// Splits the request into file path and processing. The fop is the
    /// first query item without `=` (so `?v=3` cache-busters are ignored); a
    /// style suffix applies when the path itself names no file.
    private enum ParsedTarget {
        case target(Target)
        /// The request cannot be served; answer with this.
        case answer(HTTPResponse)
    }

    private func parseTarget(_ request: HTTPRequest) -> ParsedTarget {
        let fopItem = request.query?.split(separator: "&").first { !$0.contains("=") && !$0.isEmpty }
        if let fopItem {
            guard let fop = String(fopItem).removingPercentEncoding else {
                return .answer(.text(.badRequest, "malformed percent-encoding in the processing query"))
            }
            do {
                let pipeline = try ProcessingParser.parse(fop)
                return .target(Target(encodedPath: request.path, pipeline: pipeline, transformationKey: "fop:" + fop))
            } catch {
                return .answer(.text(.badRequest, "bad processing request: \(error.message)"))
            }
        }
        if case .failure(.notFound) = files.resolve(request.path), let decoded = request.decodedPath,
            let style = configuration.styles.match(decoded)
        {
            let encoded = style.filePath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? style.filePath
            return .target(Target(encodedPath: encoded, pipeline: style.pipeline, transformationKey: "style:" + style.style))
        }
        return .target(Target(encodedPath: request.path, pipeline: nil, transformationKey: ""))
    }
}
