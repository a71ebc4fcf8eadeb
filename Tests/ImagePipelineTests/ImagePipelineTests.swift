import Foundation
import ImageCodecs
import ImagePipeline
import Synchronization
import TestSupport
import Testing
import URLRewriting

struct ImagePipelineTests {
    let fixture: PipelineFixture

    init() throws { fixture = try PipelineFixture() }

    @Test func fetchesTheWebPVariantSizedForTheScreen() async throws {
        let pipeline = try fixture.pipeline()
        let response = try await pipeline.image(for: PipelineFixture.photo)
        #expect(response.isVariant && !response.isFallback && response.source == .network)
        #expect(response.fetchedURL.absoluteString.contains("imageView2/2/w/750/format/webp"))
        #expect(response.image.firstFrame.width == 750 && response.image.firstFrame.height == 500)
        #expect(response.cacheKey == pipeline.cacheKey(for: PipelineFixture.photo))
        #expect(response.cacheKey.contains("format/webp"), "the key is the rewritten URL")
        let webpBytesBefore = pipeline.trafficMeter.snapshot.networkBytesByFormat["webp"] ?? 0
        // Without a disk cache the bytes come from the network again.
        let data = try await pipeline.data(for: PipelineFixture.photo)
        #expect(data.format == .webp && data.isVariant && data.source == .network)
        #expect(pipeline.trafficMeter.snapshot.networkBytesByFormat["webp"] == webpBytesBefore + data.data.count)
    }

    @Test func secondRequestIsAMemoryHitWithoutNetwork() async throws {
        let pipeline = try fixture.pipeline()
        _ = try await pipeline.image(for: PipelineFixture.photo)
        let before = fixture.loader.requests.count
        let again = try await pipeline.image(for: PipelineFixture.photo)
        #expect(again.source == .memory)
        #expect(fixture.loader.requests.count == before)
        #expect(pipeline.trafficMeter.snapshot.memoryHits == 1)
    }

    @Test func fiftyConcurrentRequestsMakeOneUpstreamRequest() async throws {
        let pipeline = try fixture.pipeline()
        fixture.loader.inject(.delay(.milliseconds(200)), whereURLContains: "photo.jpg")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await pipeline.image(for: PipelineFixture.photo).image.firstFrame.width } }
            for try await width in group { #expect(width == 750) }
        }
        #expect(fixture.loader.requests.count == 1)
    }

    @Test(arguments: [
        OriginLoader.Fault.status(404), .html, .truncate, .delay(.milliseconds(300)),
    ])
    func aFailedVariantFallsBackToTheOriginal(_ fault: OriginLoader.Fault) async throws {
        let pipeline = try fixture.pipeline(timeout: .milliseconds(200))
        fixture.loader.inject(fault, whereURLContains: "format/webp")
        let response = try await pipeline.image(for: PipelineFixture.photo)
        #expect(response.isFallback && !response.isVariant)
        #expect(response.fetchedURL == PipelineFixture.photo)
        #expect(response.image.firstFrame.width == 1200, "the original, as published")
        #expect(pipeline.trafficMeter.snapshot.fallbacks == 1)

        // The failure is remembered: the variant is not retried for a while.
        pipeline.removeCached(PipelineFixture.photo)
        let requestsBefore = fixture.loader.requests.count
        _ = try await pipeline.data(for: PipelineFixture.photo)
        let newRequests = fixture.loader.requests.dropFirst(requestsBefore)
        #expect(newRequests.allSatisfy { !$0.contains("format/webp") })
    }

    @Test func theNegativeCacheExpires() async throws {
        let clock = TestClock()
        let pipeline = try fixture.pipeline(now: { clock.now() })
        fixture.loader.inject(.status(404), whereURLContains: "format/webp")
        _ = try await pipeline.data(for: PipelineFixture.photo)
        fixture.loader.inject(.status(200), whereURLContains: "format/webp")
        clock.advance(by: 301)
        pipeline.removeCached(PipelineFixture.photo)
        let response = try await pipeline.data(for: PipelineFixture.photo)
        #expect(response.isVariant, "after the negative lifetime the variant is tried again")
    }

    @Test func whenTheOriginalFailsTooTheErrorSaysWhy() async throws {
        let pipeline = try fixture.pipeline()
        fixture.loader.inject(.status(500), whereURLContains: "photo.jpg")
        let error = try await #require(throws: ImagePipelineError.self) { try await pipeline.image(for: PipelineFixture.photo) }
        #expect(error.httpStatus == 500)
        #expect(error.description.contains("http://img.test/photo.jpg"))
    }

    @Test func urlsNoRuleRewritesAreFetchedAsTheyAre() async throws {
        let pipeline = try fixture.pipeline()
        let foreign = URL(string: "http://other.test/photo.jpg")!
        let response = try await pipeline.data(for: foreign)
        #expect(!response.isVariant && !response.isFallback && response.format == .jpeg)
        #expect(fixture.loader.requests == ["http://other.test/photo.jpg"])
    }

    @Test func alphaSurvivesAsWebP() async throws {
        let pipeline = try fixture.pipeline()
        let response = try await pipeline.image(for: PipelineFixture.logo)
        #expect(response.isVariant)
        #expect(!response.image.firstFrame.isOpaque)
    }

    @Test func prefetchThenDisplayIsAHit() async throws {
        let pipeline = try fixture.pipeline()
        pipeline.prefetch([PipelineFixture.photo, PipelineFixture.logo])
        try await waitUntil { pipeline.activePrefetchCount == 0 }
        let before = fixture.loader.requests.count
        #expect(before == 2)
        // Without a disk cache, prefetch decodes into memory; display is a memory hit.
        let response = try await pipeline.image(for: PipelineFixture.photo)
        #expect(response.source == .memory && response.isVariant)
        #expect(fixture.loader.requests.count == before, "display after prefetch makes no request")
    }

    @Test func cancellingOneOfTwoCallersKeepsTheFetch() async throws {
        let pipeline = try fixture.pipeline()
        fixture.loader.inject(.delay(.milliseconds(300)), whereURLContains: "photo.jpg")
        let first = Task { try await pipeline.image(for: PipelineFixture.photo) }
        let second = Task { try await pipeline.image(for: PipelineFixture.photo) }
        try await Task.sleep(for: .milliseconds(50))
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        let image = try await second.value
        #expect(image.image.firstFrame.width == 750)
        #expect(fixture.loader.requests.count == 1)
    }

    @Test func cancellingEveryCallerCancelsTheFetch() async throws {
        let pipeline = try fixture.pipeline()
        fixture.loader.inject(.delay(.seconds(5)), whereURLContains: "photo.jpg")
        let task = Task { try await pipeline.data(for: PipelineFixture.photo) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The abandoned fetch stops: a new request starts a fresh one promptly.
        fixture.loader.inject(.delay(.zero), whereURLContains: "photo.jpg")
        let response = try await pipeline.data(for: PipelineFixture.photo)
        #expect(response.isVariant)
    }
}

/// Polls `condition` every 10 ms for at most 2 minutes (generous: the whole
/// suite runs in parallel on two cores).
func waitUntil(
    _ condition: @Sendable () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(120)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 2 minutes", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
