import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A transcode is a finished answer: kept by source version and client
/// class, in memory within its share and on the pipeline's disk cache, so a
/// repeated request from a client that cannot show WebP is not transcoded
/// again — and a changed source is never answered with the old transcode.
@Suite(.timeLimit(.suiteBound))
struct TranscodeCacheTests {
    /// A CDN whose WebP variant (and its `ETag`) can be replaced; counts the variant requests.
    final class Upstream: DataLoading, Sendable {
        private let state: Lock<(webP: Data, etag: String, requests: Int)>

        init(webP: Data, etag: String) {
            state = Lock((webP, etag, 0))
        }

        func replace(with webP: Data, etag: String) {
            state.withLock { ($0.webP, $0.etag) = (webP, etag) }
        }

        var requests: Int { state.withLock { $0.requests } }

        func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            let (webP, etag) = state.withLock { state in
                state.requests += 1
                return (state.webP, state.etag)
            }
            if request.headers["If-None-Match"] == etag {
                return DataResponse(url: request.url, statusCode: 304, headers: ["ETag": etag], body: Data())
            }
            return DataResponse(
                url: request.url, statusCode: 200,
                headers: ["Cache-Control": "max-age=60", "Content-Type": "image/webp", "ETag": etag], body: webP)
        }
    }

    /// The pipeline's clock, moved on by tests that need an entry to go stale.
    final class Clock: Sendable {
        private let time = Lock(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func webP(seed: Int, width: Int = 32) throws -> Data {
        try WebPEncoder().encode(SyntheticImages.photo(width: width, height: 24, seed: seed))
    }

    static func bridge(
        _ upstream: Upstream, clock: Clock = Clock(), dataCache: (any DataCaching)? = MemoryDataCache(),
        transcodeCacheBytes: Int = TranscodeCache.defaultCapacityBytes
    ) throws -> ImageBridge {
        let rules = RewriteConfiguration(rules: [
            RewriteRule(name: "cdn", hosts: ["img.test"], dialect: .qiniu(QiniuOptions()), width: 32)
        ])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, dataCache: dataCache,
                memoryCache: nil, now: { clock.now }))
        var configuration = ImageBridge.Configuration(pipeline: pipeline)
        configuration.transcodeCacheBytes = transcodeCacheBytes
        return try ImageBridge(configuration: configuration)
    }

    /// An iOS 13 web view: no `image/webp`, so it gets the JPEG transcode.
    static func legacyAnswer(_ bridge: ImageBridge, path: String = "a.jpg") async throws -> Delivery {
        let request = DeliveryRequest(url: URL(string: "http://img.test/\(path)")!, accept: "image/png,image/*")
        guard case .image(let plan) = bridge.route(request) else {
            Issue.record("not claimed")
            throw CancellationError()
        }
        return await bridge.deliver(plan)
    }

    static func body(_ delivery: Delivery) throws -> Data {
        guard case .image(let body, let format) = delivery.content, format == .jpeg else {
            Issue.record("not a JPEG answer: \(delivery.content)")
            throw CancellationError()
        }
        return body
    }

    @Test func theSecondLegacyRequestIsNotTranscoded() async throws {
        let upstream = Upstream(webP: try Self.webP(seed: 1), etag: "\"v1\"")
        let bridge = try Self.bridge(upstream)
        let first = try await Self.legacyAnswer(bridge)
        #expect(first.transcodeSeconds != nil && !first.isKeptTranscode)
        #expect(bridge.transcodes.usage.misses == 1)

        let second = try await Self.legacyAnswer(bridge)
        #expect(try Self.body(second) == Self.body(first))
        #expect(second.transcodeSeconds == nil && second.isKeptTranscode, "no transcode ran")
        #expect(second.outcome == .transcoded)
        #expect(second.fields["ETag"] == first.fields["ETag"])
        #expect(second.fields["Content-Type"] == "image/jpeg")
        let usage = bridge.transcodes.usage
        #expect(usage.misses == 1 && usage.memoryHits == 1 && usage.entries == 1)
        #expect(usage.bytes > (try Self.body(first)).count)
        #expect(upstream.requests == 1)
    }

    @Test func aChangedSourceIsNotAnsweredWithTheOldTranscode() async throws {
        let clock = Clock()
        let newWebP = try Self.webP(seed: 2, width: 40)
        let upstream = Upstream(webP: try Self.webP(seed: 1), etag: "\"v1\"")
        let bridge = try Self.bridge(upstream, clock: clock)
        let old = try Self.body(try await Self.legacyAnswer(bridge))

        // The pipeline's entry goes stale; revalidating it finds a new version.
        upstream.replace(with: newWebP, etag: "\"v2\"")
        clock.advance(120)
        let answer = try await Self.legacyAnswer(bridge)
        let new = try Self.body(answer)
        #expect(new != old)
        #expect(answer.transcodeSeconds != nil, "transcoded afresh")
        let expected = try Transcoder(codec: ImagePipeline.platformCodec).transcode(
            newWebP, for: Transcoder.withoutWebP)
        #expect(new == expected.data)
        #expect(bridge.transcodes.usage.misses == 2)
        // The same version again: kept.
        #expect(try Self.body(try await Self.legacyAnswer(bridge)) == new)
        #expect(bridge.transcodes.usage.misses == 2)
    }

    @Test func aClientClassOfItsOwnGetsItsOwnEntry() async throws {
        let upstream = Upstream(webP: try Self.webP(seed: 3), etag: "\"v1\"")
        let bridge = try Self.bridge(upstream)
        _ = try await Self.legacyAnswer(bridge)
        // A WebP client takes no transcode and leaves the kept one alone.
        let request = DeliveryRequest(url: URL(string: "http://img.test/a.jpg")!, accept: "image/webp")
        guard case .image(let plan) = bridge.route(request) else { throw CancellationError() }
        let webP = await bridge.deliver(plan)
        #expect(webP.outcome == .webp)
        let usage = bridge.transcodes.usage
        #expect(usage.entries == 1 && usage.memoryHits == 0 && usage.diskHits == 0 && usage.misses == 1)
    }

    @Test func transcodesOutliveARestartOnTheDiskCache() async throws {
        let folder = try TemporaryDirectory(prefix: "transcode-cache")
        let upstream = Upstream(webP: try Self.webP(seed: 4), etag: "\"v1\"")
        let first = try Self.bridge(upstream, dataCache: try DiskCache(folder: folder.url))
        let made = try Self.body(try await Self.legacyAnswer(first))

        // A new process over the same folder: the variant and its transcode are both on disk.
        let restarted = try Self.bridge(upstream, dataCache: try DiskCache(folder: folder.url))
        let again = try await Self.legacyAnswer(restarted)
        #expect(try Self.body(again) == made)
        #expect(again.isKeptTranscode)
        #expect(restarted.transcodes.usage.diskHits == 1 && restarted.transcodes.usage.misses == 0)
        #expect(upstream.requests == 1)
        // Copied into memory: the next one is a memory hit.
        _ = try await Self.legacyAnswer(restarted)
        #expect(restarted.transcodes.usage.memoryHits == 1)
    }

    @Test func noCapacityKeepsNothing() async throws {
        let upstream = Upstream(webP: try Self.webP(seed: 5), etag: "\"v1\"")
        let bridge = try Self.bridge(upstream, transcodeCacheBytes: 0)
        for _ in 0..<2 { #expect(try await Self.legacyAnswer(bridge).transcodeSeconds != nil) }
        #expect(bridge.transcodes.usage.entries == 0 && bridge.transcodes.usage.misses == 2)
    }

    /// A flood of distinct images holds the memory tier within its bound,
    /// however many pass; every answer is still right.
    @Test func aFloodOfDistinctImagesStaysWithinTheBound() async throws {
        let capacity = 16 << 10
        let upstream = Upstream(webP: try Self.webP(seed: 6), etag: "\"v1\"")
        let bridge = try Self.bridge(upstream, transcodeCacheBytes: capacity)
        var largest = 0
        for index in 0..<300 {
            let answer = try await Self.legacyAnswer(bridge, path: "flood-\(index).jpg")
            #expect(answer.outcome == .transcoded)
            largest = max(largest, bridge.transcodes.usage.bytes)
        }
        let usage = bridge.transcodes.usage
        #expect(largest <= capacity, "\(largest) bytes held")
        #expect(usage.entries > 0 && usage.entries < 300, "\(usage.entries) kept")
        #expect(usage.misses == 300)
        // The most recent image is still kept.
        #expect(try await Self.legacyAnswer(bridge, path: "flood-299.jpg").isKeptTranscode)
    }
}
