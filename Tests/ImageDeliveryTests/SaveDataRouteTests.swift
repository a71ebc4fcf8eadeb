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
    static func bridge(forwardsSaveData: Bool) throws -> ImageBridge {
        try RouteProbe.bridge { $0.forwardsSaveData = forwardsSaveData }
    }

    static func plan(_ bridge: ImageBridge, saveData: [String], accept: String) throws -> DeliveryPlan {
        try RouteProbe.plan(bridge, accept: accept, fields: saveData.map { ("Save-Data", $0) })
    }

    @Test(arguments: [
        (["on"], true), (["ON"], true), ([" on "], true), ([], false), (["off"], false), (["on", "on"], false),
        (["on;x=1"], true), (["on, on"], false),
    ])
    func theFieldAsReadByClientHints(values: [String], saves: Bool) throws {
        #expect(ClientHints(fields: HTTPFieldList(values.map { ("Save-Data", $0) })).saveData == saves)
        let plan = try Self.plan(Self.bridge(forwardsSaveData: true), saveData: values, accept: "image/webp")
        #expect(plan.fetch.request.savesData == saves)
    }

    @Test func everyPlanOfTheRequestSavesData() throws {
        let bridge = try Self.bridge(forwardsSaveData: true)
        #expect(bridge.vary.contains("Save-Data"))
        let avif = try Self.plan(bridge, saveData: ["on"], accept: RouteProbe.avifAccept)
        let other = try #require(avif.otherFormat, "an AVIF client gets the AVIF variant")
        #expect(avif.fetch.request.savesData && other.fetch.request.savesData)
        #expect(other.fetch.cacheKey != other.fetch.fullAnswerKey)
        let full = try Self.plan(bridge, saveData: [], accept: RouteProbe.avifAccept)
        #expect(full.otherFormat?.fetch.cacheKey == other.fetch.fullAnswerKey)
    }

    @Test func withoutForwardingTheFieldIsNotRead() throws {
        let bridge = try Self.bridge(forwardsSaveData: false)
        #expect(!bridge.vary.contains("Save-Data"))
        let plan = try Self.plan(bridge, saveData: ["on"], accept: RouteProbe.avifAccept)
        #expect(!plan.fetch.request.savesData && plan.otherFormat?.fetch.request.savesData == false)
    }
}
