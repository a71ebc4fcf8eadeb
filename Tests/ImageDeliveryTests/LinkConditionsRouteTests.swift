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
    @Test(arguments: [
        (nil, false), (NetworkConditions.unmetered, false), (.expensive, false), (.offline, false), (.lowData, true),
        (NetworkConditions(status: .satisfied, isExpensive: true, isConstrained: true), true),
    ])
    func theTierOfTheConditions(conditions: NetworkConditions?, saves: Bool) throws {
        let bridge = try RouteProbe.bridge()
        if let conditions { bridge.update(conditions) }
        #expect(bridge.linkConditions == conditions)
        #expect(bridge.linkTier == (saves ? .reduced : .full))
        let plan = try RouteProbe.plan(bridge)
        #expect(plan.otherFormat != nil, "an AVIF client gets the AVIF variant")
        #expect(RouteProbe.fetches(plan).allSatisfy { $0.request.savesData == saves })
        #expect(RouteProbe.fetches(plan).allSatisfy { ($0.cacheKey != $0.fullAnswerKey) == saves })
        let avifURL = RouteProbe.fetches(try RouteProbe.plan(bridge, RouteProbe.explicitAVIF, accept: "image/webp,*/*"))
        #expect(avifURL.count == 2 && avifURL.allSatisfy { $0.request.savesData == saves })
        #expect(bridge.vary == "Accept", "the answer depends on the app's link, not on a field the client sent")
    }

    @Test func theLastConditionsReportedDecideTheNextRequest() async throws {
        let bridge = try RouteProbe.bridge()
        await bridge.follow(ScriptedConditions([.unmetered, .lowData]))
        #expect(try RouteProbe.plan(bridge).fetch.request.savesData)
        await bridge.follow(ScriptedConditions([.lowData, .expensive]))
        #expect(try !RouteProbe.plan(bridge).fetch.request.savesData)
    }

    @Test func aPolicyThatDoesNotSaveDataLeavesTheRequests() throws {
        let bridge = try RouteProbe.bridge { $0.linkPolicy = PrefetchPolicy(reducedSavesData: false) }
        bridge.update(.lowData)
        #expect(bridge.linkTier == .reduced)
        #expect(RouteProbe.fetches(try RouteProbe.plan(bridge)).allSatisfy { !$0.request.savesData })
    }
}
