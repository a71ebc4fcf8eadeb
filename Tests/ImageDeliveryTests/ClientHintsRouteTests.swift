import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Whether a client's width hints reach the image upstream is decided once,
/// in ``ImageBridge/route(_:)`` (``ImageBridge/Configuration/forwardsClientHints``),
/// from the hints as ``ClientHints`` reads them: every row of the one hint
/// table (``HintBucketTable``, which `ClientHintTableTests` holds
/// ``ClientHints`` to) gets its bucket on every plan of the request
/// (``ImageRequest/widthHint``), and the image path's `Vary` names every
/// hint field. The proxy applies it (`ClientHintsForwardingTests`).
@Suite(.timeLimit(.suiteBound))
struct ClientHintsRouteTests {
    static func bridge(forwardsClientHints: Bool, forwardsSaveData: Bool = false) throws -> ImageBridge {
        try RouteProbe.bridge {
            $0.forwardsClientHints = forwardsClientHints
            $0.forwardsSaveData = forwardsSaveData
        }
    }

    /// The table's rows, and what a table of one value per name cannot
    /// hold: a field sent twice, which is ignored.
    static let cases: [([(String, String)], Int?)] =
        HintBucketTable.rows.map { row in
            (row.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, row.bucket)
        }
        + [([("Sec-CH-Width", "300"), ("Sec-CH-Width", "300")], nil), ([], nil)]

    @Test func theTableIsRead() {
        #expect(HintBucketTable.rows.count >= 100)
    }

    @Test(arguments: cases)
    func theBucketOfTheHints(hints: [(String, String)], bucket: Int?) throws {
        let plan = try RouteProbe.plan(Self.bridge(forwardsClientHints: true), fields: hints)
        #expect(plan.otherFormat != nil, "an AVIF client gets the AVIF variant")
        #expect(RouteProbe.fetches(plan).allSatisfy { $0.request.widthHintBucket == bucket })
        #expect(RouteProbe.fetches(plan).allSatisfy { ($0.cacheKey != $0.fullAnswerKey) == (bucket != nil) })
        let avifURL = RouteProbe.fetches(
            try RouteProbe.plan(
                Self.bridge(forwardsClientHints: true), RouteProbe.explicitAVIF, accept: "image/webp,*/*", fields: hints
            ))
        #expect(avifURL.count == 2)
        #expect(avifURL.allSatisfy { $0.request.widthHintBucket == bucket })
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
        let plan = try RouteProbe.plan(bridge, fields: [("Sec-CH-Width", "300")])
        #expect(RouteProbe.fetches(plan).allSatisfy { $0.request.widthHint == nil && $0.standInKey == nil })
    }
}
