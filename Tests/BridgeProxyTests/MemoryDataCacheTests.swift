import BridgeProxy
import Foundation
import HTTPServer
import ImagePipeline
import Testing

/// The in-memory bytes cache the proxy uses without `--cache-dir`.
@Suite(.timeLimit(.minutes(2)))
struct MemoryDataCacheTests {
    private func response(_ bytes: Int, cacheControl: String = "max-age=600") -> DataResponse {
        DataResponse(
            url: URL(string: "http://img.test/a.jpg")!, statusCode: 200, headers: ["Cache-Control": cacheControl],
            body: Data(repeating: 7, count: bytes))
    }

    @Test func evictsTheLeastRecentlyUsedPastItsCapacity() {
        let cache = MemoryDataCache(capacity: 250)
        let now = Date()
        #expect(cache.store(response(100), for: "a", now: now))
        #expect(cache.store(response(100), for: "b", now: now))
        _ = cache.entry(for: "a")
        #expect(cache.store(response(100), for: "c", now: now))
        #expect(cache.entry(for: "b") == nil, "b was the least recently used")
        #expect(cache.entry(for: "a") != nil && cache.entry(for: "c") != nil)
        #expect(cache.totalBytes == 200)
        #expect(!cache.store(response(300), for: "big", now: now), "bigger than the whole cache")
        #expect(!cache.store(response(10, cacheControl: "no-store"), for: "a", now: now))
        #expect(cache.entry(for: "a") == nil, "a refused 200 supersedes the old entry")
    }

    @Test func aSecondRequestThroughTheBridgeIsServedFromMemory() async throws {
        let fixture = try BridgeFixture()
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try fixture.rewriter(), dataLoader: fixture.upstream, dataCache: MemoryDataCache(),
                memoryCache: nil))
        let bridge = try BridgeProxy(
            configuration: .init(mode: .reverse(upstream: URL(string: "http://img.test")!), pipeline: pipeline))
        #expect(await bridge.handle(.webView("/photo.jpg")).status == .ok)
        #expect(await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept)).status == .ok)
        let variantFetches = fixture.upstream.requests.filter { $0.url.absoluteString.contains("imageView2") }
        #expect(variantFetches.count == 1, "one network fetch for two clients")
        #expect(pipeline.trafficMeter.snapshot.diskHits == 1, "the pipeline counts any bytes-cache hit as disk")
    }
}
