import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The app's link conditions reach the bridge's image requests in one
/// place, ``ImageBridge/route(_:)``, through ``ImageBridge/Configuration/linkPolicy``:
/// in Low Data Mode every plan of a request (the WebP variant, the AVIF one,
/// the AVIF URL's WebP counterpart) saves data, whatever the client sent,
/// as an app's native views do at the prefetcher's reduced tier. The
/// adapters apply it (`DeliveryTableTests`, the proxy's memo in
/// `SaveDataForwardingTests`).
@Suite(.timeLimit(.suiteBound))
struct LinkConditionsRouteTests {
    static let host = "img.example.com"

    static func bridge(_ policy: PrefetchPolicy = PrefetchPolicy()) throws -> ImageBridge {
        let preset = try RewritePreset.configuration(named: "qiniu", host: host, width: 640, formats: [.avif, .webp])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: preset), dataLoader: ScriptedDataLoader(), memoryCache: nil))
        var configuration = ImageBridge.Configuration(pipeline: pipeline, clientPolicy: .standard)
        configuration.linkPolicy = policy
        return try ImageBridge(configuration: configuration)
    }

    static func plan(_ bridge: ImageBridge, _ path: String, accept: String = "image/avif,image/webp,*/*") throws
        -> DeliveryPlan
    {
        let fields: HTTPFieldList = ["Accept": accept, "User-Agent": ClientProfile.chrome80.userAgent]
        let url = try #require(URL(string: "http://\(host)\(path)"))
        guard case .image(let plan) = bridge.route(DeliveryRequest(method: "GET", url: url, fields: fields)) else {
            Issue.record("\(path) is on the image path")
            throw CancellationError()
        }
        return plan
    }

    /// Every fetch a plan can make, as the bridge will make them.
    static func fetches(_ plan: DeliveryPlan) -> [RequestPlan] {
        [plan.fetch] + [plan.otherFormat?.fetch, plan.counterpart].compactMap { $0 }
    }

    @Test(arguments: [
        (nil, false), (NetworkConditions.unmetered, false), (.expensive, false), (.offline, false), (.lowData, true),
        (NetworkConditions(status: .satisfied, isExpensive: true, isConstrained: true), true),
    ])
    func theTierOfTheConditions(conditions: NetworkConditions?, saves: Bool) throws {
        let bridge = try Self.bridge()
        if let conditions { bridge.update(conditions) }
        #expect(bridge.linkConditions == conditions)
        #expect(bridge.linkTier == (saves ? .reduced : .full))
        let plan = try Self.plan(bridge, "/a.jpg")
        #expect(plan.otherFormat != nil, "an AVIF client gets the AVIF variant")
        #expect(Self.fetches(plan).allSatisfy { $0.request.savesData == saves })
        #expect(Self.fetches(plan).allSatisfy { ($0.cacheKey != $0.fullAnswerKey) == saves })
        let avifURL = try Self.plan(bridge, "/a.jpg?imageView2/2/w/640/format/avif", accept: "image/webp,*/*")
        #expect(Self.fetches(avifURL).count == 2 && Self.fetches(avifURL).allSatisfy { $0.request.savesData == saves })
        #expect(bridge.vary == "Accept", "the answer depends on the app's link, not on a field the client sent")
    }

    @Test func theLastConditionsReportedDecideTheNextRequest() async throws {
        let bridge = try Self.bridge()
        await bridge.follow(ScriptedConditions([.unmetered, .lowData]))
        #expect(try Self.plan(bridge, "/a.jpg").fetch.request.savesData)
        await bridge.follow(ScriptedConditions([.lowData, .expensive]))
        #expect(try !Self.plan(bridge, "/a.jpg").fetch.request.savesData)
    }

    @Test func aPolicyThatDoesNotSaveDataLeavesTheRequests() throws {
        let bridge = try Self.bridge(PrefetchPolicy(reducedSavesData: false))
        bridge.update(.lowData)
        #expect(bridge.linkTier == .reduced)
        #expect(Self.fetches(try Self.plan(bridge, "/a.jpg")).allSatisfy { !$0.request.savesData })
    }
}
