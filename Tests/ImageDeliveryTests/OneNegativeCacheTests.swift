import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The whole fallback ladder (AVIF → WebP → original) remembers failures in
/// one negative cache, the pipeline's: bounded in bytes (keys counted by
/// their bytes) by the share of the memory budget the pipeline is given.
@Suite(.timeLimit(.suiteBound))
struct OneNegativeCacheTests {
    static func bridge(_ upstream: ScriptedDataLoader, negativeCacheBytes: Int) throws -> ImageBridge {
        let rules = RewriteConfiguration(rules: [
            RewriteRule(
                name: "cdn", hosts: ["img.test"], dialect: .qiniu(QiniuOptions()), width: 32, formats: [.avif, .webp])
        ])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, dataCache: nil, memoryCache: nil,
                negativeCacheBytes: negativeCacheBytes, now: { AVIFDeliveryTests.now }))
        return ImageBridge(pipeline: pipeline)
    }

    static func ask(_ bridge: ImageBridge, _ url: URL) async throws -> Delivery {
        let request = DeliveryRequest(url: url, accept: "image/avif,image/webp")
        guard case .image(let plan) = bridge.route(request) else {
            Issue.record("not claimed: \(url)")
            throw CancellationError()
        }
        return await bridge.deliver(plan)
    }

    @Test func aFailingAVIFVariantIsRememberedInThePipelinesNegativeCache() async throws {
        let upstream = try AVIFDeliveryTests.upstream(avif: ScriptedDataLoader.avifVariant(status: 404))
        let bridge = try Self.bridge(upstream, negativeCacheBytes: NegativeCache.defaultCapacityBytes)
        let pipeline = bridge.configuration.pipeline
        let url = URL(string: "http://img.test/one.jpg")!
        _ = try await Self.ask(bridge, url)
        #expect(pipeline.negativeCacheStatistics.entries == 1, "the AVIF failure, in the one cache")
        #expect(pipeline.negativeCacheStatistics.hits == 0)
        let again = try await Self.ask(bridge, url)
        #expect(again.outcome == .webp)
        #expect(upstream.imageFetches.avif == 1, "the second AVIF client skips the failed variant")
        #expect(pipeline.negativeCacheStatistics.hits == 1)
    }

    /// A flood of distinct failing AVIF URLs: the cache never holds more
    /// than its bytes, keys included; the newest failures are still known.
    @Test func aFloodOfFailingAVIFVariantsStaysWithinTheNegativeCachesBytes() async throws {
        let upstream = try AVIFDeliveryTests.upstream(avif: ScriptedDataLoader.avifVariant(status: 404))
        let capacity = 16 << 10
        let bridge = try Self.bridge(upstream, negativeCacheBytes: capacity)
        let pipeline = bridge.configuration.pipeline
        let longPath = String(repeating: "p", count: 120)
        var most = 0
        for index in 0..<2_000 {
            _ = try await Self.ask(bridge, URL(string: "http://img.test/\(longPath)/\(index).jpg")!)
            let statistics = pipeline.negativeCacheStatistics
            #expect(statistics.bytes <= capacity)
            most = max(most, statistics.entries)
        }
        let statistics = pipeline.negativeCacheStatistics
        #expect(upstream.imageFetches.avif == 2_000)
        #expect(statistics.entries > 0 && statistics.entries < 2_000, "\(statistics)")
        #expect(most == statistics.entries, "full, and evicting the oldest from then on")
        // Each key is charged its bytes: fewer of these long keys fit than short ones would.
        #expect(statistics.entries * (longPath.utf8.count + 20) <= capacity)
        _ = try await Self.ask(bridge, URL(string: "http://img.test/\(longPath)/1999.jpg")!)
        #expect(upstream.imageFetches.avif == 2_000, "the newest failure is remembered")
        _ = try await Self.ask(bridge, URL(string: "http://img.test/\(longPath)/0.jpg")!)
        #expect(upstream.imageFetches.avif == 2_001, "the oldest was evicted")
    }
}
