import Foundation
import HTTPServer
import WebPBridge

extension ImageOrigin {
    static let requestsFamily = MetricsRegistry.Family(
        "webpbridge_origin_requests_total", help: "Requests answered, by HTTP status.")
    static let bytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_bytes_served_total", help: "Body bytes served (file bodies counted by their length).")
    static let transformFamily = MetricsRegistry.Family(
        "webpbridge_origin_transform_seconds", help: "Time to make a variant, including the wait for a core.")
    static let cacheFamily = MetricsRegistry.Family(
        "webpbridge_origin_variant_cache_total", help: "Variant cache lookups, by result.")
    static let cacheBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_variant_cache_bytes", help: "Bytes held by the variant cache, keys included.")
    static let sourceCacheBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_source_cache_bytes", help: "Bytes held by the cache of small source files, keys included.")
    static let readyAnswersBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_ready_answers_bytes", help: "Bytes held by the ready answers, bodies and keys included.")
    static let pipelineMemoryBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_pipeline_memory_bytes", help: "Bytes held by the parsed-fop memory, fops included.")
    static let sourceFactsBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_source_facts_bytes", help: "Bytes held by the source-file facts, paths included.")
    static let fileResolutionsBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_file_resolutions_bytes", help: "Bytes held by the resolved-path memory, paths included.")
    static let scorerPlanesBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_scorer_planes_bytes",
        help: "Bytes of quality-search planes kept for the next search (inside the work-in-flight share).")
    static let memoryBudgetFamily = MetricsRegistry.Family(
        "webpbridge_origin_memory_budget_bytes", help: "The configured memory budget the caches are shares of.")
    static let residentBytesFamily = MetricsRegistry.Family(
        "webpbridge_origin_resident_bytes", help: "Resident memory of the process (VmRSS; Linux only).")

    /// The series every ready answer counts, looked up once: counting a hit
    /// then takes one small lock per series and builds no label.
    struct HotCounters: Sendable {
        let okRequests: MetricsRegistry.Counter
        let bytesServed: MetricsRegistry.Counter
        let variantHits: MetricsRegistry.Counter

        init(_ metrics: MetricsRegistry) {
            okRequests = metrics.counter(ImageOrigin.requestsFamily, labels: "status=\"200\"")
            bytesServed = metrics.counter(ImageOrigin.bytesFamily)
            variantHits = metrics.counter(ImageOrigin.cacheFamily, labels: "result=\"hit\"")
        }
    }

    /// Counts the response; `fileSize`, when known, spares a `stat` of a file body.
    func record(_ response: HTTPResponse, for request: HTTPRequest, fileSize: Int? = nil) {
        if response.status == .ok {
            hotCounters.okRequests.increment()
        } else {
            metrics.increment(Self.requestsFamily, labels: "status=\"\(response.status.code)\"")
        }
        guard request.method != .head else { return }
        switch response.body {
        case .data(let data): hotCounters.bytesServed.increment(by: Double(data.count))
        case .bytes(let bytes): hotCounters.bytesServed.increment(by: Double(bytes.count))
        case .file(let path, _, let length):
            hotCounters.bytesServed.increment(
                by: Double(length ?? fileSize.map(UInt64.init) ?? Self.fileSize(path)))
        case .empty: break
        }
    }

    /// One `stat`, where Foundation's `attributesOfItem` also looked up
    /// the owner's name and built a dictionary for every request.
    private static func fileSize(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }

    func renderMetrics() -> String {
        metrics.set(Self.cacheBytesFamily, to: Double(variants.statistics.bytes))
        metrics.set(Self.sourceCacheBytesFamily, to: Double(sourceFiles.statistics.bytes))
        metrics.set(Self.readyAnswersBytesFamily, to: Double(readyAnswers.totalBytes))
        metrics.set(Self.pipelineMemoryBytesFamily, to: Double(pipelines.totalBytes))
        metrics.set(Self.sourceFactsBytesFamily, to: Double(sources.totalBytes))
        metrics.set(Self.fileResolutionsBytesFamily, to: Double(files.resolutions.totalBytes))
        metrics.set(Self.scorerPlanesBytesFamily, to: Double(workInFlight.keptPlanes?.keptBytes ?? 0))
        metrics.set(Self.memoryBudgetFamily, to: Double(configuration.memoryBudget.totalBytes))
        if let resident = ResidentMemory.currentBytes { metrics.set(Self.residentBytesFamily, to: Double(resident)) }
        return metrics.render()
    }
}
