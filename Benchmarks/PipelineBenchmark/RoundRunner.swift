import Foundation
import TestSupport
import WebPBridge

/// The time one round took for each pass, and its memory-hit latencies.
struct RoundResult {
    /// `image(for:)` of fresh URLs: fetch from the origin + decode.
    var network: PassTime
    /// `CurlDataLoader.load` of the same variant URLs: the fetch alone.
    var fetchOnly: PassTime
    /// `ImageDecoder` on the same bytes at the same concurrency, every
    /// image held until the pass ends as the pipeline's memory cache holds it.
    var decodeOnly: PassTime
    /// The same, each image dropped as soon as it is decoded.
    var decodeDropped: PassTime
    /// `image(for:)` from a populated disk cache, empty memory cache.
    var diskImage: PassTime
    /// `data(for:)` from the same disk cache: the bytes path alone.
    var diskData: PassTime
    /// Microseconds of each memory-hit `image(for:)` call.
    var hitMicroseconds: [Double]
}

/// Runs the rounds: every pass of a round over the same images, pipeline
/// and codec-only passes interleaved so a load spike hits both.
final class RoundRunner: Sendable {
    let fixture: BenchmarkFixture
    let options: Options
    /// Images per pass (each photo `repeats` times).
    let passCount: Int

    private let diskFolder: TemporaryDirectory
    private let diskCache: DiskCache
    private let diskURLs: [URL]
    private let hitPipeline: ImagePipeline
    private let hitURLs: [URL]

    /// Fills the disk cache and the memory-hit pipeline's memory cache
    /// (untimed).
    init(fixture: BenchmarkFixture, options: Options) async throws {
        self.fixture = fixture
        self.options = options
        let photoCount = fixture.variants.count
        passCount = photoCount * options.repeats

        diskFolder = try TemporaryDirectory(prefix: "pipeline-benchmark-disk")
        diskCache = try DiskCache(folder: diskFolder.url)
        diskURLs = (0..<passCount).map { fixture.url(photo: $0, query: "disk=\($0)") }
        let filler = fixture.pipeline(dataCache: diskCache, memoryCache: nil)
        for (index, url) in diskURLs.enumerated() {
            let response = try await filler.data(for: url)
            guard response.data == fixture.variants[index % photoCount] else {
                throw BenchmarkError("\(url): the disk cache got other bytes than the variant")
            }
        }

        hitPipeline = fixture.pipeline(dataCache: MemoryDataCache(), memoryCache: MemoryCache())
        hitURLs = (0..<photoCount).map { fixture.url(photo: $0, query: "hit=1") }
        for url in hitURLs { _ = try await hitPipeline.image(for: url) }
    }

    func run(round: Int) async throws -> RoundResult {
        let concurrency = options.concurrency
        let count = passCount

        // Network + decode: a new pipeline (empty caches) and URLs never
        // asked before, so every image is fetched and decoded.
        let networkURLs = (0..<count).map { fixture.url(photo: $0, query: "round=\(round)&n=\($0)") }
        let networkPipeline = fixture.pipeline(dataCache: MemoryDataCache(), memoryCache: MemoryCache())
        let network = try await Passes.tasks(count: count, concurrency: concurrency) { index in
            let response = try await networkPipeline.image(for: networkURLs[index])
            guard response.source == .network, response.isVariant, !response.isFallback else {
                throw BenchmarkError("\(networkURLs[index]): \(response.source), variant \(response.isVariant)")
            }
        }
        try checkReceivedBytes(networkPipeline, urls: networkURLs)

        let decodeOnly = try await Passes.decode(
            fixture.variants, count: count, concurrency: concurrency, keepingImages: true)
        let decodeDropped = try await Passes.decode(
            fixture.variants, count: count, concurrency: concurrency, keepingImages: false)

        // The fetch alone: the loader on the variant URLs the pipeline asked for.
        let fetchURLs = (0..<count).map {
            fixture.rewriter.rewrite(fixture.url(photo: $0, query: "round=\(round)&f=\($0)")).url
        }
        let loader = fixture.loader
        let accept = networkPipeline.configuration.variantAccept
        let variants = fixture.variants
        let fetchOnly = try await Passes.tasks(count: count, concurrency: concurrency) { index in
            let response = try await loader.load(DataRequest(url: fetchURLs[index], headers: ["Accept": accept]))
            guard response.statusCode == 200, response.body.count == variants[index % variants.count].count else {
                throw BenchmarkError("\(fetchURLs[index]): HTTP \(response.statusCode), not the variant")
            }
        }

        let diskImagePipeline = fixture.pipeline(dataCache: diskCache, memoryCache: MemoryCache())
        let diskURLs = self.diskURLs
        let diskImage = try await Passes.tasks(count: count, concurrency: concurrency) { index in
            let response = try await diskImagePipeline.image(for: diskURLs[index])
            guard response.source == .disk else { throw BenchmarkError("\(diskURLs[index]): \(response.source)") }
        }

        let diskDataPipeline = fixture.pipeline(dataCache: diskCache, memoryCache: nil)
        let diskData = try await Passes.tasks(count: count, concurrency: concurrency) { index in
            let response = try await diskDataPipeline.data(for: diskURLs[index])
            guard response.source == .disk else { throw BenchmarkError("\(diskURLs[index]): \(response.source)") }
        }

        return RoundResult(
            network: network, fetchOnly: fetchOnly, decodeOnly: decodeOnly, decodeDropped: decodeDropped,
            diskImage: diskImage, diskData: diskData,
            hitMicroseconds: try await memoryHits())
    }

    /// Times `image(for:)` calls one by one on one task; every one must be
    /// a memory hit.
    private func memoryHits() async throws -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(options.hitsPerRound)
        let clock = ContinuousClock()
        for call in 0..<options.hitsPerRound {
            let url = hitURLs[call % hitURLs.count]
            let start = clock.now
            let response = try await hitPipeline.image(for: url)
            let elapsed = clock.now - start
            guard response.source == .memory else { throw BenchmarkError("\(url): \(response.source), not memory") }
            samples.append(Seconds.of(elapsed) * 1e6)
        }
        return samples
    }

    /// The codec-only pass decodes `fixture.variants`: make sure those are
    /// exactly the bytes this pipeline received (its bytes cache kept them).
    private func checkReceivedBytes(_ pipeline: ImagePipeline, urls: [URL]) throws {
        for (index, url) in urls.enumerated() {
            guard let received = pipeline.configuration.dataCache?.entry(for: pipeline.cacheKey(for: url))?.data,
                received == fixture.variants[index % fixture.variants.count]
            else { throw BenchmarkError("\(url): the pipeline received other bytes than the codec pass decodes") }
        }
    }
}
