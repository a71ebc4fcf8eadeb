import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The core's one behaviour for AVIF, used by every adapter: an AVIF client
/// gets the AVIF variant, a WebP client the WebP variant, everyone else the
/// transcode of the WebP variant; a failing AVIF variant falls back through
/// the policy (WebP, else the transcode), then the original as before.
@Suite(.timeLimit(.suiteBound))
struct AVIFDeliveryTests {
    /// Whether ``ImageFormat`` knows AVIF yet (the codec lands in ImageCoding
    /// on its own branch); until then every AVIF attempt falls back at once.
    static let codecKnowsAVIF = ImageFormat(rawValue: "avif") != nil

    /// The CDN's original JPEG and WebP variant of one photo, encoded once.
    static let samples = Result { () throws -> (original: Data, webP: Data) in
        let image = SyntheticImages.photo(width: 32, height: 24, seed: 14)
        return (try JPEGEncoder().encode(image), try WebPEncoder().encode(image))
    }

    /// A CDN answering `format/avif` with `avif`, `format/webp` with the
    /// WebP variant and the original otherwise, each fetch recorded.
    static func upstream(avif: ScriptedDataLoader.Answer) throws -> ScriptedDataLoader {
        let samples = try Self.samples.get()
        let cached: HTTPFieldList = ["cache-control": "max-age=60"]
        let upstream = ScriptedDataLoader(answering: .ok(samples.original, fields: cached))
        upstream.inject(avif, whereURLContains: "format/avif")
        upstream.inject(.ok(samples.webP, fields: cached), whereURLContains: "format/webp")
        return upstream
    }

    /// An AVIF variant that is an HTML page.
    static let htmlPage = ScriptedDataLoader.Answer.response(
        status: 200, fields: ["content-type": "text/html"], body: Data("<html>not an image</html>".utf8))

    static let url = URL(string: "http://img.test/a.jpg")!

    /// The pipeline's clock, standing still: the upstream's `max-age=60` and
    /// the failed variants' lifetime (5 minutes) must not run out between a
    /// test's requests, however slow the run (`make test-tsan` refetched
    /// variants when they did).
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func bridge(_ upstream: ScriptedDataLoader) throws -> ImageBridge {
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
        let upstream = try Self.upstream(avif: ScriptedDataLoader.avifVariant())
        let bridge = try Self.bridge(upstream)
        let avif = try await Self.answer(bridge, accept: "image/avif,image/webp,*/*")
        let webP = try await Self.answer(bridge, accept: "image/webp,*/*")
        let other = try await Self.answer(bridge, accept: "image/*")
        let bodies = [avif, webP, other].compactMap(Self.body)
        try #require(bodies.count == 3)
        #expect(bodies[0].0 == ScriptedDataLoader.avifBytes)
        #expect(avif.fields["Content-Type"] == "image/avif")
        #expect(avif.outcome == .avif)
        #expect(try bodies[1].0 == Self.samples.get().webP)
        #expect(webP.fields["Content-Type"] == "image/webp")
        #expect(bodies[2].1 == .jpeg && other.transcodeSeconds != nil)
        #expect(Set(bodies.map(\.0)).count == 3)
        #expect(upstream.imageFetches == (1, 1, 0))
        #expect([avif, webP, other].allSatisfy { $0.fields["Vary"] == "Accept" })
        // Each variant under its own key: the URL fetched.
        #expect(avif.image?.cacheKey != webP.image?.cacheKey)
        #expect(webP.image?.cacheKey == other.image?.cacheKey)
    }

    @Test(arguments: [ScriptedDataLoader.Answer.text(404, "no"), .text(503, "no"), htmlPage])
    func aFailingAVIFVariantFallsBackToTheWebPVariant(_ answer: ScriptedDataLoader.Answer) async throws {
        let upstream = try Self.upstream(avif: answer)
        let bridge = try Self.bridge(upstream)
        let delivery = try await Self.answer(bridge, accept: "image/avif,image/webp")
        let (body, format) = try #require(Self.body(delivery))
        #expect(try body == Self.samples.get().webP && format == .webp)
        #expect(delivery.fields["Content-Type"] == "image/webp")
        #expect(delivery.outcome == .webp)
        // The AVIF variant is tried once (not at all while the codecs cannot
        // tell AVIF), then the WebP variant; never the original.
        #expect(upstream.imageFetches == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
        // The failure is remembered: the next AVIF client is not made to wait on it again.
        let again = try await Self.answer(bridge, accept: "image/avif,image/webp")
        #expect(try Self.body(again)?.0 == Self.samples.get().webP)
        #expect(upstream.imageFetches == (Self.codecKnowsAVIF ? 1 : 0, 1, 0))
    }

    @Test func anAVIFOnlyClientWhoseVariantFailsGetsTheTranscode() async throws {
        let upstream = try Self.upstream(avif: .text(404, "no"))
        let bridge = try Self.bridge(upstream)
        let delivery = try await Self.answer(bridge, accept: "image/avif")
        let (_, format) = try #require(Self.body(delivery))
        #expect(format == .jpeg)
        #expect(delivery.outcome == .transcoded)
        #expect(upstream.imageFetches.originals == 0)
    }
}
