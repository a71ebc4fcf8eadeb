import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// AVIF through the proxy: the AVIF variant to an AVIF client, the WebP
/// variant to a WebP client, the transcode to the rest; a failing AVIF
/// variant falls back to the WebP variant.
@Suite(.timeLimit(.suiteBound))
struct AVIFImagePathTests {
    static let codecKnowsAVIF = ImageFormat(rawValue: "avif") != nil
    /// The fixture's bridge, AVIF first then WebP, over `loader`.
    static func bridge(_ fixture: BridgeFixture, _ loader: ScriptedDataLoader) throws -> BridgeProxy {
        try fixture.bridge(loader: loader, formats: [.avif, .webp])
    }

    static func get(_ accept: String) -> HTTPRequest {
        HTTPRequest(target: "/photo.jpg", headers: ["User-Agent": "test", "Accept": accept])
    }

    @Test(.enabled(if: codecKnowsAVIF, "ImageFormat has no .avif until the AVIF codec branch is merged"))
    func threeClientsGetThreeBodiesFromTwoVariantFetchesAndOneTranscode() async throws {
        let fixture = try BridgeFixture()
        let site = ScriptedDataLoader(forwardingTo: fixture.upstream)
        site.inject(ScriptedDataLoader.avifVariant(status: 200), whereURLContains: "format/avif")
        let bridge = try Self.bridge(fixture, site)
        let avif = await bridge.handle(Self.get("image/avif,image/webp,image/*,*/*;q=0.8"))
        let webP = await bridge.handle(Self.get(BridgeFixture.webPAccept))
        let other = await bridge.handle(Self.get(BridgeFixture.noWebPAccept))
        #expect(avif.headers["Content-Type"] == "image/avif")
        #expect(avif.bodyData == ScriptedDataLoader.avifBytes)
        #expect(webP.headers["Content-Type"] == "image/webp")
        #expect(try ImageFormat.sniff(webP.bodyData) == .webp)
        #expect(other.headers["Content-Type"] == "image/jpeg")
        #expect(try ImageFormat.sniff(other.bodyData) == .jpeg)
        #expect(Set([avif.bodyData, webP.bodyData, other.bodyData]).count == 3)
        #expect([avif, webP, other].allSatisfy { $0.headers["Vary"] == "Accept" })
        #expect(site.imageFetches == (1, 1, 0))
        let metrics = bridge.metrics.render()
        #expect(metrics.contains("webpbridge_proxy_requests_total{outcome=\"avif\"} 1"))
        #expect(metrics.contains("webpbridge_proxy_requests_total{outcome=\"transcoded\"} 1"))
    }

    @Test(arguments: [404, 500])
    func aFailingAVIFVariantFallsBackToTheWebPVariant(_ status: Int) async throws {
        let fixture = try BridgeFixture()
        let site = ScriptedDataLoader(forwardingTo: fixture.upstream)
        site.inject(ScriptedDataLoader.avifVariant(status: status), whereURLContains: "format/avif")
        let bridge = try Self.bridge(fixture, site)
        let response = await bridge.handle(Self.get("image/avif,image/webp,*/*"))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/webp")
        #expect(try ImageFormat.sniff(response.bodyData) == .webp)
        #expect(response.headers["Vary"] == "Accept")
        #expect(site.imageFetches == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
        #expect(bridge.metrics.render().contains("webpbridge_proxy_requests_total{outcome=\"webp\"} 1"))
    }

    /// The AVIF variant's failure is remembered in the one negative cache
    /// (the pipeline's, a share of the memory budget), which `/metrics`
    /// shows: its bytes, its entries, and the fetches it spared.
    @Test(.enabled(if: codecKnowsAVIF, "ImageFormat has no .avif until the AVIF codec branch is merged"))
    func theAVIFVariantsFailureIsOnTheMetricsOfTheOneNegativeCache() async throws {
        let fixture = try BridgeFixture()
        let site = ScriptedDataLoader(forwardingTo: fixture.upstream)
        site.inject(ScriptedDataLoader.avifVariant(status: 404), whereURLContains: "format/avif")
        let bridge = try Self.bridge(fixture, site)
        let first = await bridge.handle(Self.get("image/avif,image/webp,*/*"))
        #expect(first.headers["Content-Type"] == "image/webp")
        // Another client: the hit memo does not answer it; the AVIF variant is not asked for again.
        let second = await bridge.handle(
            HTTPRequest(target: "/photo.jpg", headers: ["User-Agent": "other", "Accept": "image/avif,image/webp"]))
        #expect(second.headers["Content-Type"] == "image/webp")
        #expect(site.imageFetches.avif == 1)
        let metrics = await bridge.handle(HTTPRequest(target: "/__bridge/metrics")).bodyText
        let bytes = Self.gauge("webpbridge_proxy_failed_variants_bytes", in: metrics)
        #expect((bytes ?? 0) > 0 && (bytes ?? 0) <= Double(bridge.configuration.memoryBudget.failedVariantsBytes))
        #expect(Self.gauge("webpbridge_proxy_failed_variants_entries", in: metrics) == 1)
        #expect(Self.gauge("webpbridge_proxy_failed_variants_hits", in: metrics) == 1)
    }

    static func gauge(_ name: String, in metrics: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
            Double($0.dropFirst(name.count + 1))
        }
    }
}

/// A page that names an AVIF variant itself (`…/format/avif`): passed
/// through to a client that shows AVIF; every other client is served as
/// for a WebP variant — the WebP counterpart, or a transcode — never AVIF.
@Suite(.timeLimit(.suiteBound))
struct ExplicitAVIFTests {
    static let target = "/photo.jpg?imageView2/2/w/64/format/avif"

    @Test(
        .enabled(if: AVIFImagePathTests.codecKnowsAVIF, "ImageFormat has no .avif"),
        arguments: [
            ("iOS 13 WebView", BridgeFixture.webKitUserAgent, BridgeFixture.noWebPAccept, "image/jpeg"),
            ("WebP, no AVIF", "test", "image/webp,*/*", "image/webp"),
            ("no Accept", "test", nil, "image/jpeg"),
            ("AVIF client", "test", "image/avif,image/webp,*/*", "image/avif"),
        ] as [(String, String, String?, String)])
    func explicitAVIFIsBridgedForClientsThatCannotShowIt(
        _ label: String, userAgent: String, accept: String?, expected: String
    ) async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        var headers: HTTPFieldList = ["User-Agent": userAgent]
        if let accept { headers["Accept"] = accept }
        let response = await bridge.handle(HTTPRequest(target: Self.target, headers: headers))
        #expect(response.status == .ok, "\(label)")
        #expect(response.headers["Content-Type"] == expected, "\(label)")
        let sniffed = try ImageFormat.sniff(response.bodyData)
        #expect(sniffed.mimeType == expected, "\(label)")
        #expect(response.headers["Vary"] == "Accept", "\(label)")
        if expected != "image/avif" {
            // Served from the WebP counterpart, 64 px wide as the page asked.
            let info = try ImageInfo(response.bodyData)
            #expect(info.width == 64, "\(label)")
        }
    }
}

/// `Accept` is a list field (RFC 9110 §12.5.1): sent on two lines it is
/// read as one list, as the web view adapter and the nginx recipe's table do.
@Suite(.timeLimit(.suiteBound))
struct RepeatedAcceptTests {
    @Test func twoAcceptLinesAreOneList() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        var headers: HTTPFieldList = ["User-Agent": "test"]
        headers.add(name: "Accept", value: "image/png")
        headers.add(name: "Accept", value: "image/webp")
        let response = await bridge.handle(HTTPRequest(target: "/photo.jpg", headers: headers))
        #expect(response.headers["Content-Type"] == "image/webp")
    }
}
