import Foundation
public import HTTPServer
import WebPBridge

/// The image origin: serves a folder of images over HTTP and makes variants
/// on request with Qiniu's grammar (`?imageView2/…`, `?imageMogr2/…`, `|`
/// pipelines, style suffixes), negotiating WebP by `Accept` when asked —
/// the CDN's side of the contract, on one machine. The folder's other files
/// (pages, stylesheets, scripts) are served as they are, typed by extension
/// (``SiteMediaTypes``), with validators and single byte ranges, so a whole
/// site can be hosted on it; a path ending in `/` serves its `index.html`.
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
    let variants: VariantCache<CachedVariant>
    let queue: WorkQueue
    /// The memory budget's share for variants being made.
    let workInFlight: WorkInFlight
    let sources: SourceFacts
    let pipelines: PipelineMemory
    /// Small source files served from memory (see `sourceBytes(of:tag:)`).
    let sourceFiles: VariantCache<BodyBytes>
    /// Answers to repeated requests, ready to send (see ``ReadyAnswers``).
    let readyAnswers: ReadyAnswers
    /// The series a ready answer counts (see ``HotCounters``).
    let hotCounters: HotCounters
    /// ``ImageTransformer/Configuration/encodingFingerprint``, hashed into
    /// every variant's ETag.
    let encodingFingerprint: String

    /// What the variant cache keeps under a variant's key: the variant, or
    /// its refusal (413: past a size, pixel, memory or work limit), which
    /// the same source version, transformation and configuration meet
    /// again, as the key says. Asked again, a refusal is answered at once,
    /// on the server's thread, without a place in the work queue, a read
    /// of the source or its headers parsed again; one found only after
    /// work was spent (a graphic animation's mixed encoding, refused once
    /// its sampled frames were decoded) costs that work once. A refusal is
    /// charged its message and ``refusalOverheadBytes``, beside its key.
    typealias CachedVariant = Result<Variant, TransformError>

    /// What a remembered refusal is charged in the variant cache beside
    /// its message and key.
    static let refusalOverheadBytes = 64

    /// A transformed image as served: its bytes filled once, when it is
    /// made, and sent from there by every response without a copy.
    struct Variant: Sendable {
        var bytes: BodyBytes
        var format: ImageFormat
        /// Under client hints: the width it was made at, and the width it
        /// would have without them (for `Content-DPR`); `nil` otherwise.
        var widths: (served: Int, unhinted: Int)? = nil
        /// ``ImageTransformer/qualityField``'s value, when a search chose the quality.
        var quality: String? = nil
    }

    /// - Throws: ``FileResolverError`` when the root is not a folder.
    public init(configuration: Configuration) throws(FileResolverError) {
        self.configuration = configuration
        let budget = configuration.memoryBudget
        files = try FileResolver(root: configuration.root, memoryBytes: budget.fileResolutionBytes)
        sources = SourceFacts(capacityBytes: budget.sourceFactsBytes)
        pipelines = PipelineMemory(capacityBytes: budget.pipelineMemoryBytes)
        // Kept inside the work-in-flight share, which frees them when a variant needs the room.
        let scorerPlanes = SSIMULACRA2.PlanePool(capacityBytes: budget.scorerPlanesBytes)
        transformer = ImageTransformer(configuration: configuration.transformer, scorerPlanes: scorerPlanes)
        encodingFingerprint = configuration.transformer.encodingFingerprint
        variants = VariantCache(capacity: configuration.variantCacheBytes)
        sourceFiles = VariantCache(capacity: configuration.sourceCacheBytes)
        readyAnswers = ReadyAnswers(
            capacityBytes: budget.readyAnswersBytes, revalidation: configuration.readyAnswerRevalidation)
        hotCounters = HotCounters(metrics)
        // One fewer than the transformation threads may wait for memory, so one always works.
        workInFlight = WorkInFlight(
            capacityBytes: budget.workInFlightBytes, maxWaiting: max(1, configuration.maxConcurrentTransforms) - 1,
            keeping: scorerPlanes)
        queue = WorkQueue(
            concurrency: max(1, configuration.maxConcurrentTransforms), queueLimit: configuration.maxQueuedTransforms)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let response: HTTPResponse
        var fileSize: Int?
        switch answer(request) {
        case .ready(let ready, let size, _):
            response = ready
            fileSize = size
        case .variant(let job): response = await makeVariant(job)
        }
        record(response, for: request, fileSize: fileSize)
        return response
    }

    /// Every answer that needs no transformation — files as they are,
    /// cached variants, `304`s, errors, `/healthz`, `/metrics` — given on
    /// the server's thread, which is several times cheaper than a task per
    /// request; variants not yet cached are left to ``handle(_:)``.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        guard case .ready(let response, let fileSize, _) = answer(request) else { return nil }
        record(response, for: request, fileSize: fileSize)
        return response
    }

    /// What the origin does with a request: answer it now, or make a variant.
    enum Answer {
        /// `fileSize`: the size of a file body, as resolved (for the metrics);
        /// `fromVariantCache`: a variant the cache held.
        case ready(HTTPResponse, fileSize: Int? = nil, fromVariantCache: Bool = false)
        case variant(VariantJob)
    }

    /// Routes a request and answers it, short of transforming: cheap and
    /// synchronous, so the server may call it on its own thread.
    func answer(_ request: HTTPRequest) -> Answer {
        // Keyed by the Accept header as sent when negotiating: the negotiated format follows from it.
        // And by the hints' sizing when honoured: two DPRs in two buckets are two answers.
        let readyKey = ReadyAnswers.key(
            for: request, negotiates: configuration.autoWebP || configuration.autoFormat
        ).map { $0 + readyKeySuffix(for: request) }
        if let readyKey, let ready = readyAnswers.answer(for: readyKey) {
            if ready.isVariant { hotCounters.variantHits.increment() }
            return .ready(ready.response, fileSize: ready.file.size, fromVariantCache: ready.isVariant)
        }
        guard request.method == .get || request.method == .head else {
            return .ready(
                .text(.methodNotAllowed, "only GET and HEAD are served", headers: ["Allow": "GET, HEAD"]))
        }
        switch request.path {
        case "/healthz": return .ready(.text(.ok, "ok"))
        case "/metrics": return .ready(.data(Data(renderMetrics().utf8), contentType: MetricsRegistry.contentType))
        default: break
        }
        let target: Target
        let resolution: Result<FileResolver.File, FileResolver.Refusal>
        switch parseTarget(request) {
        case .target(let parsed, let resolved):
            target = parsed
            resolution = resolved ?? files.resolve(parsed.encodedPath)
        case .answer(let response): return .ready(response)
        }
        switch resolution {
        case .success(let file):
            let served = serve(file, target: target, request: request)
            // A whole file or a cached variant, to be sent again as it is.
            if let readyKey, case .ready(let response, _, let fromVariantCache) = served, response.status == .ok {
                readyAnswers.remember(response, file: file, isVariant: fromVariantCache, for: readyKey)
            }
            return served
        case .failure(.forbidden): return .ready(.text(.forbidden, "path leaves the served folder"))
        case .failure(.notFound): return .ready(.text(.notFound, "no such file"))
        }
    }

    /// What a request asks for: which file, and which transformation.
    struct Target {
        var encodedPath: String
        var pipeline: ProcessingPipeline?
        /// Identifies the transformation in cache keys and ETags: the
        /// pipeline's canonical form, so every spelling of one
        /// transformation (and a style naming it) shares a variant.
        var transformationKey: String
    }

    /// Splits the request into file path and processing. The fop is the
    /// first query item without `=` (so `?v=3` cache-busters are ignored); a
    /// style suffix applies when the path itself names no file. A fop the
    /// parser refuses is a 400, unless it carries `ignore-error/1`: then the
    /// request is the plain file's.
    private enum ParsedTarget {
        /// The target, and the resolution of its path when already known.
        case target(Target, resolved: Result<FileResolver.File, FileResolver.Refusal>?)
        /// The request cannot be served; answer with this.
        case answer(HTTPResponse)
    }

    private func parseTarget(_ request: HTTPRequest) -> ParsedTarget {
        // A folder's page, as web servers serve it: `/` and `/news/` are their `index.html`.
        let path = request.path.hasSuffix("/") ? request.path + "index.html" : request.path
        let fopItem = request.query?.split(separator: "&").first { !$0.isEmpty && !$0.contains("=" as Character) }
        if let fopItem {
            let decoded = FileResolver.percentDecoded(String(fopItem))
            do throws(ProcessingError) {
                guard let fop = decoded else {
                    throw ProcessingError("malformed percent-encoding in the processing query")
                }
                let pipeline = try pipelines.pipeline(for: fop)
                return .target(
                    Target(
                        encodedPath: path, pipeline: pipeline,
                        transformationKey: "fop:" + pipeline.canonicalForm),
                    resolved: nil)
            } catch {
                // `ignore-error/1` covers a refused request too: it is answered as the plain URL would be.
                if ProcessingParser.requestsIgnoreError(decoded ?? String(fopItem)) {
                    return .target(
                        Target(encodedPath: path, pipeline: nil, transformationKey: ""), resolved: files.resolve(path))
                }
                let prefix = decoded == nil ? "" : "bad processing request: "
                return .answer(.text(.badRequest, prefix + error.message))
            }
        }
        let plain = files.resolve(path)
        if case .failure(.notFound) = plain, let decoded = request.decodedPath,
            let style = configuration.styles.match(decoded)
        {
            let encoded = style.filePath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? style.filePath
            return .target(
                Target(
                    encodedPath: encoded, pipeline: style.pipeline,
                    transformationKey: "fop:" + style.pipeline.canonicalForm),
                resolved: nil)
        }
        return .target(Target(encodedPath: path, pipeline: nil, transformationKey: ""), resolved: plain)
    }
}
