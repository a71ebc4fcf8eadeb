import Foundation
import PipelineTestSupport
import TestSupport
import Testing
import WebPBridge

@testable import WebPURLProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// AVIF through the URL protocol; in the serialized suite, since the newest
/// registration claims requests.
extension WebPBridgeURLProtocolTests {
    static let codecKnowsAVIF = ImageFormat(rawValue: "avif") != nil
    func withAVIFBridge(avifStatus: Int, _ body: (LiveOrigin, ScriptedDataLoader, URLSession) async throws -> Void)
        async throws
    {
        try await LiveOrigin.with { origin in
            var rules = try RewritePreset.configuration(named: "qiniu", host: "localhost", width: 750)
            rules.rules[0].formats = [.avif, .webp]
            let loader = ScriptedDataLoader(forwardingTo: origin.loader)
            loader.inject(ScriptedDataLoader.avifVariant(status: avifStatus), whereURLContains: "format/avif")
            let pipeline = ImagePipeline(
                configuration: .init(
                    rewriter: try Rewriter(configuration: rules), dataLoader: loader, dataCache: MemoryDataCache(),
                    memoryCache: nil, requestTimeout: .seconds(60)))
            try await withRegistration(pipeline: pipeline, policy: .standard) { session in
                try await body(origin, loader, session)
            }
        }
    }

    @Test(.enabled(if: codecKnowsAVIF, "ImageFormat has no .avif until the AVIF codec branch is merged"))
    func threeClientsGetThreeBodiesFromTwoVariantFetchesAndOneTranscode() async throws {
        try await withAVIFBridge(avifStatus: 200) { origin, loader, session in
            let url = origin.url("/photo.jpg", host: "localhost")
            var bodies: [Data] = []
            var types: [String?] = []
            for accept in ["image/avif,image/webp,*/*", "image/webp,*/*", "image/*"] {
                let (data, response) = try await session.data(for: request(url, userAgent: "test", accept: accept))
                bodies.append(data)
                types.append((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"))
            }
            #expect(types == ["image/avif", "image/webp", "image/jpeg"])
            #expect(bodies[0] == ScriptedDataLoader.avifBytes)
            #expect(try ImageFormat.sniff(bodies[1]) == .webp)
            #expect(try ImageFormat.sniff(bodies[2]) == .jpeg)
            #expect(loader.imageFetches == (1, 1, 0))
        }
    }

    @Test func aFailingAVIFVariantFallsBackToTheWebPVariant() async throws {
        try await withAVIFBridge(avifStatus: 404) { origin, loader, session in
            let url = origin.url("/photo.jpg", host: "localhost")
            let (data, response) = try await session.data(
                for: request(url, userAgent: "test", accept: "image/avif,image/webp,*/*"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/webp")
            #expect(try ImageFormat.sniff(data) == .webp)
            #expect(loader.imageFetches == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
        }
    }
}
