import ConcurrencySupport
import Foundation
import HTTPFields
import ImageCodecs
import ImageCoding
import ImageDelivery
import ImagePipeline
import TestSupport
import TestTraits
import Testing
import URLRewriting

/// The core's one behaviour for AVIF, used by every adapter: an AVIF client
/// gets the AVIF variant, a WebP client the WebP variant, everyone else the
/// transcode of the WebP variant; a failing AVIF variant falls back through
/// the policy (WebP, else the transcode), then the original as before.
@Suite(.timeLimit(.suiteBound))
struct AVIFDeliveryTests {
    /// Whether ``ImageFormat`` knows AVIF yet (the codec lands in ImageCoding
    /// on its own branch); until then every AVIF attempt falls back at once.
    static let codecKnowsAVIF = ImageFormat(rawValue: "avif") != nil

    /// A bare ISO-BMFF `ftyp` box with major brand `avif`: the start of every AVIF file.
    static let avifBytes = Data(
        [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))

    /// A CDN answering `format/avif`, `format/webp` and the original, each counted.
    final class Upstream: DataLoading, Sendable {
        enum AVIFAnswer: Sendable {
            case avif
            case status(Int)
            case html
        }
        let original: Data
        let webP: Data
        private let state = Lock((avif: 0, webP: 0, originals: 0))
        let avifAnswer: AVIFAnswer

        init(avifAnswer: AVIFAnswer) throws {
            let image = SyntheticImages.photo(width: 32, height: 24, seed: 14)
            original = try JPEGEncoder().encode(image)
            webP = try WebPEncoder().encode(image)
            self.avifAnswer = avifAnswer
        }

        var counts: (avif: Int, webP: Int, originals: Int) { state.withLock { ($0.avif, $0.webP, $0.originals) } }

        func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            let query = request.url.query ?? ""
            let headers: HTTPFieldList = ["cache-control": "max-age=60"]
            if query.contains("format/avif") {
                state.withLock { $0.avif += 1 }
                switch avifAnswer {
                case .avif:
                    return DataResponse(
                        url: request.url, statusCode: 200,
                        headers: ["cache-control": "max-age=60", "content-type": "image/avif"],
                        body: AVIFDeliveryTests.avifBytes)
                case .status(let status):
                    return DataResponse(url: request.url, statusCode: status, headers: [:], body: Data("no".utf8))
                case .html:
                    return DataResponse(
                        url: request.url, statusCode: 200, headers: ["content-type": "text/html"],
                        body: Data("<html>not an image</html>".utf8))
                }
            }
            if query.contains("format/webp") {
                state.withLock { $0.webP += 1 }
                return DataResponse(url: request.url, statusCode: 200, headers: headers, body: webP)
            }
            state.withLock { $0.originals += 1 }
            return DataResponse(url: request.url, statusCode: 200, headers: headers, body: original)
        }
    }

    static let url = URL(string: "http://img.test/a.jpg")!

    /// The pipeline's clock, standing still: the upstream's `max-age=60` and
    /// the failed variants' lifetime (5 minutes) must not run out between a
    /// test's requests, however slow the run (`make test-tsan` refetched
    /// variants when they did).
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func bridge(_ upstream: Upstream) throws -> ImageBridge {
        let rules = RewriteConfiguration(rules: [
            RewriteRule(
                name: "cdn", hosts: ["img.test"], dialect: .qiniu(QiniuOptions()), width: 32, formats: [.avif, .webp])
        ])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, memoryCache: nil, now: { Self.now })
        )
        return ImageBridge(pipeline: pipeline)
    }

    static func answer(_ bridge: ImageBridge, accept: String?) async throws -> Delivery {
        let request = DeliveryRequest(url: url, accept: accept)
        guard case .image(let plan) = bridge.route(request) else {
            Issue.record("not claimed for \(accept ?? "no Accept")")
            throw CancellationError()
        }
        return await bridge.deliver(plan)
    }

    static func body(_ delivery: Delivery) -> (Data, ImageFormat)? {
        if case .image(let body, let format) = delivery.content { return (body, format) }
        return nil
    }

    @Test(.enabled(if: codecKnowsAVIF, "ImageFormat has no .avif until the AVIF codec branch is merged"))
    func threeClientsGetThreeBodiesFromTwoVariantFetchesAndOneTranscode() async throws {
        let upstream = try Upstream(avifAnswer: .avif)
        let bridge = try Self.bridge(upstream)
        let avif = try await Self.answer(bridge, accept: "image/avif,image/webp,*/*")
        let webP = try await Self.answer(bridge, accept: "image/webp,*/*")
        let other = try await Self.answer(bridge, accept: "image/*")
        let bodies = [avif, webP, other].compactMap(Self.body)
        try #require(bodies.count == 3)
        #expect(bodies[0].0 == Self.avifBytes)
        #expect(avif.fields["Content-Type"] == "image/avif")
        #expect(avif.outcome == .avif)
        #expect(bodies[1].0 == upstream.webP)
        #expect(webP.fields["Content-Type"] == "image/webp")
        #expect(bodies[2].1 == .jpeg && other.transcodeSeconds != nil)
        #expect(Set(bodies.map(\.0)).count == 3)
        #expect(upstream.counts == (1, 1, 0))
        #expect([avif, webP, other].allSatisfy { $0.fields["Vary"] == "Accept" })
        // Each variant under its own key: the URL fetched.
        #expect(avif.image?.cacheKey != webP.image?.cacheKey)
        #expect(webP.image?.cacheKey == other.image?.cacheKey)
    }

    @Test(arguments: [Upstream.AVIFAnswer.status(404), .status(503), .html])
    func aFailingAVIFVariantFallsBackToTheWebPVariant(_ answer: Upstream.AVIFAnswer) async throws {
        let upstream = try Upstream(avifAnswer: answer)
        let bridge = try Self.bridge(upstream)
        let delivery = try await Self.answer(bridge, accept: "image/avif,image/webp")
        let (body, format) = try #require(Self.body(delivery))
        #expect(body == upstream.webP && format == .webp)
        #expect(delivery.fields["Content-Type"] == "image/webp")
        #expect(delivery.outcome == .webp)
        // The AVIF variant is tried once (not at all while the codecs cannot
        // tell AVIF), then the WebP variant; never the original.
        #expect(upstream.counts == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
        // The failure is remembered: the next AVIF client is not made to wait on it again.
        let again = try await Self.answer(bridge, accept: "image/avif,image/webp")
        #expect(Self.body(again)?.0 == upstream.webP)
        #expect(upstream.counts == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
    }

    @Test func anAVIFOnlyClientWhoseVariantFailsGetsTheTranscode() async throws {
        let upstream = try Upstream(avifAnswer: .status(404))
        let bridge = try Self.bridge(upstream)
        let delivery = try await Self.answer(bridge, accept: "image/avif")
        let (_, format) = try #require(Self.body(delivery))
        #expect(format == .jpeg)
        #expect(delivery.outcome == .transcoded)
        #expect(upstream.counts.originals == 0)
    }
}
