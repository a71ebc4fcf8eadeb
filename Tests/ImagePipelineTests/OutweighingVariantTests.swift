import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A variant that turns out larger than the original the cache holds is
/// not asked for again for a while: the original is, from the cache.
@Suite(.timeLimit(.suiteBound))
struct OutweighingVariantTests {
    @Test func theOriginalIsAskedForInsteadOfALargerVariant() async throws {
        let image = SyntheticImages.photo(width: 32, height: 32, seed: 9)
        let original = try JPEGEncoder(options: .init(quality: 40)).encode(image)
        let variant = try WebPEncoder(options: .init(lossless: true)).encode(image)
        try #require(variant.count > original.count, "the fixture's variant outweighs the original")
        // A CDN whose variant fails at first, then answers with more bytes than the original.
        let upstream = ScriptedDataLoader(
            answering: .ok(original, fields: ["cache-control": "max-age=86400", "content-type": "image/jpeg"]))
        upstream.inject(.response(status: 500, fields: [:], body: Data()), whereURLContains: "format/webp")
        let clock = Lock(Date(timeIntervalSince1970: 1_000_000))
        let rules = try RewritePreset.configuration(named: "qiniu", host: "img.test", width: 32)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, memoryCache: nil,
                negativeCacheLifetime: 60, now: { clock.withLock { $0 } }))
        let url = URL(string: "http://img.test/a.jpg")!

        let first = try await pipeline.data(for: url)
        #expect(first.isFallback, "the variant failed: the original, now cached")
        upstream.inject(
            .ok(variant, fields: ["cache-control": "max-age=86400", "content-type": "image/webp"]),
            whereURLContains: "format/webp")
        clock.withLock { $0 += 120 }
        let second = try await pipeline.data(for: url)
        #expect(second.isVariant && second.data == variant, "the variant already paid for is delivered")
        #expect(pipeline.trafficMeter.snapshot.outweighingVariants == 1)

        let third = try await pipeline.data(for: url)
        #expect(third.data == original && third.source == .disk, "the cached original, not the variant")
        let variantFetches = upstream.requestCount(whereURLContains: "format/webp")
        #expect(variantFetches == 2 && upstream.requests.count - variantFetches == 1, "nothing more on the wire")
    }
}
