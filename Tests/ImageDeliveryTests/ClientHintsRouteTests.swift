import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Whether a client's width hints reach the image upstream is decided once,
/// in ``ImageBridge/route(_:)`` (``ImageBridge/Configuration/forwardsClientHints``),
/// from the hints as ``ClientHints`` reads them: every plan of the request
/// carries the width bucket (``ImageRequest/widthHint``), and the image
/// path's `Vary` names every hint field. The proxy applies it
/// (`ClientHintsForwardingTests`).
@Suite(.timeLimit(.suiteBound))
struct ClientHintsRouteTests {
    static let host = "img.example.com"

    static func bridge(forwardsClientHints: Bool, forwardsSaveData: Bool = false) throws -> ImageBridge {
        let preset = try RewritePreset.configuration(named: "qiniu", host: host, width: 640, formats: [.avif, .webp])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: preset), dataLoader: ScriptedDataLoader(), memoryCache: nil))
        var configuration = ImageBridge.Configuration(pipeline: pipeline, clientPolicy: .standard)
        configuration.forwardsClientHints = forwardsClientHints
        configuration.forwardsSaveData = forwardsSaveData
        return try ImageBridge(configuration: configuration)
    }

    static func plan(
        _ bridge: ImageBridge, _ path: String = "/a.jpg", accept: String = "image/avif,image/webp,*/*",
        hints: [(String, String)]
    ) throws -> DeliveryPlan {
        var fields: HTTPFieldList = ["Accept": accept, "User-Agent": ClientProfile.chrome80.userAgent]
        for (name, value) in hints { fields.add(name: name, value: value) }
        let url = try #require(URL(string: "http://\(host)\(path)"))
        guard case .image(let plan) = bridge.route(DeliveryRequest(method: "GET", url: url, fields: fields)) else {
            Issue.record("\(path) is on the image path")
            throw CancellationError()
        }
        return plan
    }

    static func fetches(_ plan: DeliveryPlan) -> [RequestPlan] {
        [plan.fetch] + [plan.otherFormat?.fetch, plan.counterpart].compactMap { $0 }
    }

    @Test(
        arguments: [
            ([("Sec-CH-Width", "300")], 320), ([("Width", "300")], 320), ([("Sec-CH-Width", "750")], 750),
            ([("Sec-CH-Viewport-Width", "320"), ("Sec-CH-DPR", "3")], 960),
            ([("Viewport-Width", "320"), ("DPR", "2.625")], 960), ([("Sec-CH-DPR", "3")], nil),
            ([("Sec-CH-Width", "3000")], nil), ([("Sec-CH-Width", "abc")], nil), ([("Sec-CH-Width", "1, 2")], nil),
            ([("Sec-CH-Width", "300"), ("Sec-CH-Width", "300")], nil), ([], nil),
        ] as [([(String, String)], Int?)])
    func theBucketOfTheHints(hints: [(String, String)], bucket: Int?) throws {
        let plan = try Self.plan(Self.bridge(forwardsClientHints: true), hints: hints)
        #expect(plan.otherFormat != nil, "an AVIF client gets the AVIF variant")
        #expect(Self.fetches(plan).allSatisfy { $0.request.widthHintBucket == bucket })
        #expect(Self.fetches(plan).allSatisfy { ($0.cacheKey != $0.fullAnswerKey) == (bucket != nil) })
        let avifURL = try Self.plan(
            Self.bridge(forwardsClientHints: true), "/a.jpg?imageView2/2/w/640/format/avif", accept: "image/webp,*/*",
            hints: hints)
        #expect(Self.fetches(avifURL).count == 2)
        #expect(Self.fetches(avifURL).allSatisfy { $0.request.widthHintBucket == bucket })
    }

    @Test func everyAnswerVariesOnTheHints() throws {
        #expect(try Self.bridge(forwardsClientHints: false).vary == "Accept")
        #expect(
            try Self.bridge(forwardsClientHints: true).vary
                == "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width, Sec-CH-Viewport-Width, Viewport-Width")
        #expect(
            try Self.bridge(forwardsClientHints: true, forwardsSaveData: true).vary
                == "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width, Sec-CH-Viewport-Width, Viewport-Width, Save-Data")
    }

    @Test func withoutForwardingTheHintsAreNotRead() throws {
        let bridge = try Self.bridge(forwardsClientHints: false)
        #expect(bridge.widthHint(["Sec-CH-Width": "300"]) == nil)
        let plan = try Self.plan(bridge, hints: [("Sec-CH-Width", "300")])
        #expect(Self.fetches(plan).allSatisfy { $0.request.widthHint == nil && $0.standInKey == nil })
    }
}
