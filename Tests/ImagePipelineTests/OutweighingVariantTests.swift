import ConcurrencySupport
import Foundation
import HTTPFields
import ImageCodecs
import ImagePipeline
import TestSupport
import TestTraits
import Testing
import URLRewriting

/// A variant that turns out larger than the original the cache holds is
/// not asked for again for a while: the original is, from the cache.
@Suite(.timeLimit(.suiteBound))
struct OutweighingVariantTests {
    /// A CDN whose variant fails at first, then answers with more bytes than the original.
    final class Upstream: DataLoading, Sendable {
        let original: Data
        let variant: Data
        private let state = Lock((variantFails: true, variants: 0, originals: 0))

        init() throws {
            let image = SyntheticImages.photo(width: 32, height: 32, seed: 9)
            original = try JPEGEncoder(options: .init(quality: 40)).encode(image)
            variant = try WebPEncoder(options: .init(lossless: true)).encode(image)
        }

        func heal() { state.withLock { $0.variantFails = false } }
        var counts: (variants: Int, originals: Int) { state.withLock { ($0.variants, $0.originals) } }

        func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            let isVariant = request.url.query?.contains("format/webp") == true
            let fails = state.withLock { state -> Bool in
                if isVariant { state.variants += 1 } else { state.originals += 1 }
                return isVariant && state.variantFails
            }
            let headers: HTTPFieldList = [
                "cache-control": "max-age=86400", "content-type": isVariant ? "image/webp" : "image/jpeg",
            ]
            if fails { return DataResponse(url: request.url, statusCode: 500, headers: [:], body: Data()) }
            return DataResponse(
                url: request.url, statusCode: 200, headers: headers, body: isVariant ? variant : original)
        }
    }

    @Test func theOriginalIsAskedForInsteadOfALargerVariant() async throws {
        let upstream = try Upstream()
        try #require(upstream.variant.count > upstream.original.count, "the fixture's variant outweighs the original")
        let clock = Lock(Date(timeIntervalSince1970: 1_000_000))
        let rules = try RewritePreset.configuration(named: "qiniu", host: "img.test", width: 32)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, memoryCache: nil,
                negativeCacheLifetime: 60, now: { clock.withLock { $0 } }))
        let url = URL(string: "http://img.test/a.jpg")!

        let first = try await pipeline.data(for: url)
        #expect(first.isFallback, "the variant failed: the original, now cached")
        upstream.heal()
        clock.withLock { $0 += 120 }
        let second = try await pipeline.data(for: url)
        #expect(second.isVariant && second.data == upstream.variant, "the variant already paid for is delivered")
        #expect(pipeline.trafficMeter.snapshot.outweighingVariants == 1)

        let third = try await pipeline.data(for: url)
        #expect(third.data == upstream.original && third.source == .disk, "the cached original, not the variant")
        #expect(upstream.counts.variants == 2 && upstream.counts.originals == 1, "nothing more on the wire")
    }
}
