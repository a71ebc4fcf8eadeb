import Foundation
import HTTPServer

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
        "webpbridge_origin_variant_cache_bytes", help: "Bytes held by the variant cache.")

    func record(_ response: HTTPResponse, for request: HTTPRequest) {
        metrics.increment(Self.requestsFamily, labels: "status=\"\(response.status.code)\"")
        guard request.method != .head else { return }
        switch response.body {
        case .data(let data): metrics.increment(Self.bytesFamily, by: Double(data.count))
        case .file(let path, _, let length):
            let size = length.map(Int.init) ?? ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            metrics.increment(Self.bytesFamily, by: Double(size))
        case .empty: break
        }
    }

    func renderMetrics() -> String {
        metrics.set(Self.cacheBytesFamily, to: Double(variants.statistics.bytes))
        return metrics.render()
    }
}
