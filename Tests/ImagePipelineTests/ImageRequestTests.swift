import Foundation
import PipelineTestSupport
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// Each option of ``ImageRequest`` carried from the top of the pipeline to
/// the fetch and the decode, against a live `ImageOrigin` (the real codecs
/// decode its 750×500 WebP variant).
@Suite(.timeLimit(.suiteBound))
struct ImageRequestTests {
    /// A pipeline over `origin` whose transfers are recorded, with a bytes
    /// cache and a clock the test moves.
    private struct Fixture {
        let pipeline: ImagePipeline
        let loader: ScriptedDataLoader
        let memory: MemoryCache
        let clock: Lock<Date>

        init(_ origin: LiveOrigin) throws {
            let rewriting = try RewritePreset.configuration(named: "qiniu", host: "127.0.0.1", width: 750)
            let loader = ScriptedDataLoader(forwardingTo: origin.loader)
            let memory = MemoryCache(capacity: 64 << 20)
            let clock = Lock(Date(timeIntervalSince1970: 1_800_000_000))
            pipeline = ImagePipeline(
                configuration: .init(
                    rewriter: try Rewriter(configuration: rewriting), dataLoader: loader,
                    dataCache: MemoryDataCache(), memoryCache: memory, now: { clock.withLock { $0 } }))
            self.loader = loader
            self.memory = memory
            self.clock = clock
        }
    }

    @Test func aTargetSizeDecodesScaledAndIsCachedApartFromTheWholeImage() async throws {
        try await LiveOrigin.with { origin in
            let fixture = try Fixture(origin)
            let pipeline = fixture.pipeline
            let small = ImageRequest(url: origin.photo, targetSize: .init(width: 200, height: 200))
            let scaled = try await pipeline.image(for: small)
            let frame = scaled.image.firstFrame
            #expect(frame.width <= 200 && frame.height <= 200, "\(frame.width)×\(frame.height)")
            #expect(frame.width >= 100, "scaled to fit, not to a sliver: \(frame.width)×\(frame.height)")
            #expect(scaled.isVariant && scaled.source == .network)

            // The whole image is not the thumbnail: decoded again, from the bytes cache.
            let whole = try await pipeline.image(for: origin.photo)
            #expect(whole.image.firstFrame.width == 750 && whole.image.firstFrame.height == 500)
            #expect(whole.source == .disk)
            #expect(fixture.loader.requests.count == 1, "one transfer for both sizes")

            let again = try await pipeline.image(for: small)
            #expect(again.source == .memory && again.image.firstFrame.width == frame.width)
            #expect(fixture.memory.usage.count == 2)

            pipeline.removeCached(origin.photo)
            #expect(fixture.memory.usage.count == 0, "evicting a URL evicts it at every size")
        }
    }

    @Test func cacheOnlyNeverTouchesTheNetwork() async throws {
        try await LiveOrigin.with { origin in
            let fixture = try Fixture(origin)
            let pipeline = fixture.pipeline
            let cacheOnly = ImageRequest(url: origin.photo, cachePolicy: .cacheOnly)
            let miss = try await #require(throws: ImagePipelineError.self) {
                try await pipeline.data(for: cacheOnly)
            }
            #expect(miss.isNotCached)
            let missedImage = try await #require(throws: ImagePipelineError.self) {
                try await pipeline.image(for: cacheOnly)
            }
            #expect(missedImage.isNotCached)
            #expect(fixture.loader.requests.isEmpty)
            #expect(pipeline.negativeCacheStatistics.entries == 0, "a miss is not a failed variant")

            _ = try await pipeline.data(for: origin.photo)
            // Two days on the entry (max-age one day) is stale: cache-only takes it as it is.
            fixture.clock.withLock { $0 += 2 * 86_400 }
            let stale = try await pipeline.data(for: cacheOnly)
            #expect(stale.source == .disk && stale.isVariant && stale.format == .webp)
            #expect(fixture.loader.requests.count == 1)
        }
    }

    @Test func reloadGoesToTheNetworkUnconditionallyAndRefreshesTheCaches() async throws {
        try await LiveOrigin.with { origin in
            let fixture = try Fixture(origin)
            let pipeline = fixture.pipeline
            _ = try await pipeline.image(for: origin.photo)
            let reload = ImageRequest(url: origin.photo, cachePolicy: .reloadIgnoringCache)
            #expect(pipeline.cachedData(for: pipeline.plan(for: reload)) == nil, "no cached answer for a reload")
            let reloaded = try await pipeline.image(for: reload)
            #expect(reloaded.source == .network, "neither the memory nor the fresh disk entry answered")
            let requests = fixture.loader.requests
            #expect(requests.count == 2)
            let conditions = requests.last.map { [$0.headers["If-None-Match"], $0.headers["If-Modified-Since"]] }
            #expect(conditions == [nil, nil], "an unconditional request")
            let cached = try await pipeline.image(for: origin.photo)
            #expect(cached.source == .memory, "the reload refreshed the memory cache")
        }
    }

    @Test func thePriorityReachesTheLoader() async throws {
        try await LiveOrigin.with { origin in
            let fixture = try Fixture(origin)
            _ = try await fixture.pipeline.data(for: ImageRequest(url: origin.photo, priority: .veryHigh))
            _ = try await fixture.pipeline.data(for: ImageRequest(url: origin.logo))
            #expect(fixture.loader.requests.map(\.priority) == [.veryHigh, .normal])
        }
    }

    @Test func callersShareAFetchOnlyWhenTheyAskForTheSameThing() async throws {
        try await LiveOrigin.with { origin in
            let fixture = try Fixture(origin)
            let pipeline = fixture.pipeline
            let base = ImageRequest(url: origin.photo)
            let plans = [
                base, ImageRequest(url: origin.photo, priority: .high),
                ImageRequest(url: origin.photo, targetSize: .init(width: 10, height: 10)),
            ].map(pipeline.plan(for:))
            #expect(Set(plans.map(\.fetchKey)).count == 1, "priority and size do not change the bytes")
            #expect(Set(plans.map(\.imageFetchKey)).count == 2, "a size changes the image")
            let others = [
                ImageRequest(url: origin.photo, cachePolicy: .reloadIgnoringCache),
                ImageRequest(url: origin.photo, cachePolicy: .cacheOnly),
                ImageRequest(url: origin.photo, redirects: .report),
                ImageRequest(url: origin.photo, cachePolicy: .reloadIgnoringCache, redirects: .report),
            ].map(pipeline.plan(for:))
            #expect(Set((others + [plans[0]]).map(\.fetchKey)).count == 5)
            #expect(Set((others + [plans[0]]).map(\.cacheKey)).count == 1, "one cache entry whatever the options")
        }
    }

    @Test(arguments: [
        (points: 100.0, scale: 3.0, pixels: 300), (points: 0.1, scale: 1.0, pixels: 1),
        (points: 1e9, scale: 2.0, pixels: 16_383), (points: .nan, scale: 2.0, pixels: 1),
        (points: -5.0, scale: 2.0, pixels: 1),
    ])
    func targetSizesInPointsAreClampedPixels(points: Double, scale: Double, pixels: Int) {
        let size = ImageRequest.TargetSize(width: points, height: points, scale: scale)
        #expect(size.width == pixels && size.height == pixels)
    }
}
