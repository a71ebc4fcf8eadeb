import ConcurrencySupport
import Foundation
import ImageCodecs
import ImageCoding
import ImageDelivery
import ImagePipeline
import PipelineTestSupport
import Testing
import URLRewriting

@testable import WebPURLProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// AVIF through the URL protocol; in the serialized suite, since the newest
/// registration claims requests.
extension WebPBridgeURLProtocolTests {
    static let codecKnowsAVIF = ImageFormat(rawValue: "avif") != nil
    /// A bare ISO-BMFF `ftyp` box with major brand `avif`.
    static let avifBytes = Data(
        [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))

    /// The live origin, with `format/avif` answered here (AVIF bytes or a
    /// failure status), every variant and original fetch counted.
    final class AVIFLoader: DataLoading, Sendable {
        let origin: any DataLoading
        let avifStatus: Int
        private let counts = Lock((avif: 0, webP: 0, originals: 0))

        init(_ origin: any DataLoading, avifStatus: Int) {
            self.origin = origin
            self.avifStatus = avifStatus
        }

        var fetched: (avif: Int, webP: Int, originals: Int) { counts.withLock { $0 } }

        func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            let query = request.url.query ?? ""
            if query.contains("format/avif") {
                counts.withLock { $0.avif += 1 }
                return DataResponse(
                    url: request.url, statusCode: avifStatus, headers: ["cache-control": "max-age=60"],
                    body: avifStatus == 200 ? WebPBridgeURLProtocolTests.avifBytes : Data("gone".utf8))
            }
            counts.withLock { counts in
                if query.contains("format/webp") { counts.webP += 1 } else { counts.originals += 1 }
            }
            return try await origin.load(request, onChunk: onChunk)
        }
    }

    func withAVIFBridge(avifStatus: Int, _ body: (LiveOrigin, AVIFLoader, URLSession) async throws -> Void)
        async throws
    {
        try await LiveOrigin.with { origin in
            var rules = try RewritePreset.configuration(named: "qiniu", host: "localhost", width: 750)
            rules.rules[0].formats = [.avif, .webp]
            let loader = AVIFLoader(origin.loader, avifStatus: avifStatus)
            let pipeline = ImagePipeline(
                configuration: .init(
                    rewriter: try Rewriter(configuration: rules), dataLoader: loader, dataCache: MemoryDataCache(),
                    memoryCache: nil, requestTimeout: .seconds(60)))
            let registration = WebPBridgeURLProtocol.register(.init(pipeline: pipeline, policy: .standard))
            let session = URLSession(
                configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .ephemeral), delegate: nil,
                delegateQueue: nil)
            defer {
                WebPBridgeURLProtocol.unregister(registration)
                session.finishTasksAndInvalidate()
            }
            try await body(origin, loader, session)
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
            #expect(bodies[0] == Self.avifBytes)
            #expect(try ImageFormat.sniff(bodies[1]) == .webp)
            #expect(try ImageFormat.sniff(bodies[2]) == .jpeg)
            #expect(loader.fetched == (1, 1, 0))
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
            #expect(loader.fetched == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
        }
    }
}
