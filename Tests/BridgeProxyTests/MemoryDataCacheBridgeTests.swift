import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The proxy with the in-memory bytes cache it uses without `--cache-dir`
/// (the cache itself is tested in `ImagePipelineTests`).
@Suite(.timeLimit(.suiteBound))
struct MemoryDataCacheBridgeTests {
    @Test func aSecondRequestThroughTheBridgeIsServedFromMemory() async throws {
        let fixture = try BridgeFixture()
        let rewriter = try fixture.rewriter()
        let mode = BridgeProxy.Configuration.Mode.reverse(upstream: URL(string: "http://img.test")!)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: fixture.upstream, dataCache: MemoryDataCache(), memoryCache: nil,
                redirectPolicy: mode.redirectPolicy(rewriter: rewriter)))
        let bridge = try BridgeProxy(configuration: .init(mode: mode, pipeline: pipeline))
        #expect(await bridge.handle(.webView("/photo.jpg")).status == .ok)
        #expect(await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept)).status == .ok)
        let variantFetches = fixture.upstream.requests.filter { $0.url.absoluteString.contains("imageView2") }
        #expect(variantFetches.count == 1, "one network fetch for two clients")
        #expect(pipeline.trafficMeter.snapshot.diskHits == 1, "the pipeline counts any bytes-cache hit as disk")
    }
}
