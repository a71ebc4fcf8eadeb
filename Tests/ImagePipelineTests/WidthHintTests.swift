import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A request with a width hint (``ImageRequest/widthHint``: `proxy
/// --client-hints` passes a client's on) asks with `Sec-CH-Width` set to
/// the hint's bucket and keeps what it gets apart, per bucket: a narrower
/// answer never stands in for the full one or for another bucket's, while a
/// fresh full answer already held answers it at no cost on the wire.
@Suite(.timeLimit(.suiteBound))
struct WidthHintTests {
    /// A CDN that sizes by `Sec-CH-Width`, as `webp-bridge origin
    /// --client-hints` does: its answer is the variant at that width (at
    /// most the rule's 640), and it says so in `Vary`.
    struct Site {
        /// The variant at each width.
        let images: [Int: Data]
        let upstream: ScriptedDataLoader
        let pipeline: ImagePipeline
        static let url = URL(string: "http://img.test/a.jpg")!

        init() throws {
            let images = try [160, 320, 480, 640].reduce(into: [Int: Data]()) { images, width in
                images[width] = try WebPEncoder(options: .init(quality: 80)).encode(
                    SyntheticImages.photo(width: width, height: width / 2, seed: 5))
            }
            self.images = images
            upstream = ScriptedDataLoader { request, _ throws(DataLoadingError) in
                let hinted = request.headers[ClientHints.widthFieldName].flatMap { Int($0) } ?? 640
                return DataResponse(
                    url: request.url, statusCode: 200,
                    headers: [
                        "Content-Type": "image/webp", "Cache-Control": "max-age=86400",
                        "Vary": "Accept, Sec-CH-Width",
                    ],
                    body: images[min(hinted, 640)] ?? Data("no such width".utf8))
            }
            let rules = try RewritePreset.configuration(named: "qiniu", host: "img.test", width: 640)
            pipeline = ImagePipeline(
                configuration: .init(
                    rewriter: try Rewriter(configuration: rules), dataLoader: upstream, memoryCache: nil))
        }

        func request(_ widthHint: Int?) -> ImageRequest { ImageRequest(url: Self.url, widthHint: widthHint) }

        /// The `Sec-CH-Width` of each request the CDN got, in order (`-` for none).
        var sentWidths: [String] { upstream.requests.map { $0.headers[ClientHints.widthFieldName] ?? "-" } }
    }

    @Test(arguments: [
        (1, 160), (160, 160), (161, 320), (400, 480), (2560, 2560), (2561, nil), (16383, nil), (0, nil), (-5, nil),
        (16384, nil),
    ])
    func theHintIsSentAsItsBucket(hint: Int, bucket: Int?) {
        let request = ImageRequest(url: Site.url, widthHint: hint)
        #expect(request.widthHintBucket == bucket)
        #expect(request.asksForLess == (bucket != nil))
    }

    @Test func eachBucketHasItsOwnKeyAndTheFullAnswerStandsIn() throws {
        let site = try Site()
        let full = site.pipeline.plan(for: site.request(nil))
        let narrow = site.pipeline.plan(for: site.request(300))
        let sameBucket = site.pipeline.plan(for: site.request(320))
        let saving = site.pipeline.plan(for: ImageRequest(url: Site.url, savesData: true, widthHint: 300))
        #expect(narrow.variantURL == full.variantURL, "the same URL is fetched")
        #expect(narrow.cacheKey == sameBucket.cacheKey, "one key per bucket")
        #expect(Set([full.cacheKey, narrow.cacheKey, saving.cacheKey]).count == 3)
        #expect(narrow.standInKey == full.cacheKey && saving.standInKey == full.cacheKey)
        #expect(narrow.originalCacheKey != full.originalCacheKey && narrow.originalStandInKey == full.originalCacheKey)
        #expect(site.pipeline.plan(for: site.request(9000)).cacheKey == full.cacheKey, "past the largest bucket")
    }

    @Test func theNarrowAnswerIsAskedForAndNeverStandsInForAnother() async throws {
        let site = try Site()
        let narrow = try await site.pipeline.data(for: site.request(300))
        #expect(narrow.data == site.images[320] && narrow.source == .network)
        let other = try await site.pipeline.data(for: site.request(150))
        #expect(other.data == site.images[160] && other.source == .network)
        let full = try await site.pipeline.data(for: site.request(nil))
        #expect(full.data == site.images[640] && full.source == .network)
        #expect(site.sentWidths == ["320", "160", "-"])
        // Held now: each from its own entry, and a bucket never fetched from the full answer's.
        #expect(try await site.pipeline.data(for: site.request(320)).data == narrow.data)
        #expect(try await site.pipeline.data(for: site.request(nil)).data == full.data)
        let standIn = try await site.pipeline.data(for: site.request(470))
        #expect(standIn.data == full.data && standIn.source != .network, "the full answer costs nothing")
        #expect(site.sentWidths == ["320", "160", "-"], "nothing more on the wire")
    }
}
