import Foundation
import TestSupport
import Testing
import WebPBridge

/// What the route suites share: a bridge under the qiniu rule for
/// ``host`` (AVIF first, then WebP) over a loader that is never reached,
/// the plan ``ImageBridge/route(_:)`` makes for a request, and every fetch
/// that plan can make.
enum RouteProbe {
    static let host = "img.example.com"
    static let avifAccept = "image/avif,image/webp,*/*"
    /// A URL that names the AVIF variant itself: a WebP client gets its WebP counterpart.
    static let explicitAVIF = "/a.jpg?imageView2/2/w/640/format/avif"

    static func bridge(_ configure: (inout ImageBridge.Configuration) -> Void = { _ in }) throws -> ImageBridge {
        let preset = try RewritePreset.configuration(named: "qiniu", host: host, width: 640, formats: [.avif, .webp])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: preset), dataLoader: ScriptedDataLoader(), memoryCache: nil))
        var configuration = ImageBridge.Configuration(pipeline: pipeline, clientPolicy: .standard)
        configure(&configuration)
        return try ImageBridge(configuration: configuration)
    }

    /// The plan for a GET of `path` by Chrome with `accept` and `fields`,
    /// recorded as an issue (and thrown) when the request is not on the
    /// image path.
    static func plan(
        _ bridge: ImageBridge, _ path: String = "/a.jpg", accept: String = avifAccept, fields: [(String, String)] = []
    ) throws -> DeliveryPlan {
        var list: HTTPFieldList = ["Accept": accept, "User-Agent": ClientProfile.chrome80.userAgent]
        for (name, value) in fields { list.add(name: name, value: value) }
        let url = try #require(URL(string: "http://\(host)\(path)"))
        guard case .image(let plan) = bridge.route(DeliveryRequest(method: "GET", url: url, fields: list)) else {
            Issue.record("\(path) is on the image path")
            throw CancellationError()
        }
        return plan
    }

    /// Every fetch `plan` can make: the WebP variant, the AVIF one, the AVIF URL's WebP counterpart.
    static func fetches(_ plan: DeliveryPlan) -> [RequestPlan] {
        [plan.fetch] + [plan.otherFormat?.fetch, plan.counterpart].compactMap { $0 }
    }
}
