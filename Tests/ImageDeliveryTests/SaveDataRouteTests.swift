import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Whether a client's `Save-Data` reaches the image upstream is decided
/// once, in ``ImageBridge/route(_:)`` (``ImageBridge/Configuration/forwardsSaveData``):
/// every plan of the request (the WebP variant, the AVIF one, the AVIF
/// URL's WebP counterpart) saves data, and the image path's `Vary` names
/// the field. The proxy applies it (`SaveDataForwardingTests`).
@Suite(.timeLimit(.suiteBound))
struct SaveDataRouteTests {
    static let host = "img.example.com"

    static func bridge(forwardsSaveData: Bool) throws -> ImageBridge {
        let preset = try RewritePreset.configuration(named: "qiniu", host: host, width: 640, formats: [.avif, .webp])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: preset), dataLoader: ScriptedDataLoader(), memoryCache: nil))
        var configuration = ImageBridge.Configuration(pipeline: pipeline, clientPolicy: .standard)
        configuration.forwardsSaveData = forwardsSaveData
        return try ImageBridge(configuration: configuration)
    }

    static func plan(_ bridge: ImageBridge, _ path: String, saveData: [String], accept: String) throws -> DeliveryPlan {
        var fields: HTTPFieldList = ["Accept": accept, "User-Agent": ClientProfile.chrome80.userAgent]
        for value in saveData { fields.add(name: "Save-Data", value: value) }
        let url = try #require(URL(string: "http://\(host)\(path)"))
        guard case .image(let plan) = bridge.route(DeliveryRequest(method: "GET", url: url, fields: fields)) else {
            Issue.record("\(path) is on the image path")
            throw CancellationError()
        }
        return plan
    }

    static let avifAccept = "image/avif,image/webp,*/*"

    @Test(arguments: [
        (["on"], true), (["ON"], true), ([" on "], true), ([], false), (["off"], false), (["on", "on"], false),
        (["on;x=1"], true), (["on, on"], false),
    ])
    func theFieldAsReadByClientHints(values: [String], saves: Bool) throws {
        #expect(ClientHints(fields: HTTPFieldList(values.map { ("Save-Data", $0) })).saveData == saves)
        let plan = try Self.plan(Self.bridge(forwardsSaveData: true), "/a.jpg", saveData: values, accept: "image/webp")
        #expect(plan.fetch.request.savesData == saves)
    }

    @Test func everyPlanOfTheRequestSavesData() throws {
        let bridge = try Self.bridge(forwardsSaveData: true)
        #expect(bridge.vary.contains("Save-Data"))
        let avif = try Self.plan(bridge, "/a.jpg", saveData: ["on"], accept: Self.avifAccept)
        let other = try #require(avif.otherFormat, "an AVIF client gets the AVIF variant")
        #expect(avif.fetch.request.savesData && other.fetch.request.savesData)
        #expect(other.fetch.cacheKey != other.fetch.fullAnswerKey)
        let full = try Self.plan(bridge, "/a.jpg", saveData: [], accept: Self.avifAccept)
        #expect(full.otherFormat?.fetch.cacheKey == other.fetch.fullAnswerKey)
    }

    @Test func withoutForwardingTheFieldIsNotRead() throws {
        let bridge = try Self.bridge(forwardsSaveData: false)
        #expect(!bridge.vary.contains("Save-Data"))
        let plan = try Self.plan(bridge, "/a.jpg", saveData: ["on"], accept: Self.avifAccept)
        #expect(!plan.fetch.request.savesData && plan.otherFormat?.fetch.request.savesData == false)
    }
}
