import Foundation
import PipelineTestSupport
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// The pipeline against a live `ImageOrigin` on 127.0.0.1, fetched with the
/// default loader (`CurlDataLoader` on Linux); faults are injected at the
/// server, keyed on the variant's query or a path.
@Suite(.timeLimit(.suiteBound))
struct ImagePipelineTests {
    static let variant = LiveOrigin.variantQuery

    @Test func fetchesTheWebPVariantSizedForTheScreen() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            let response = try await pipeline.image(for: origin.photo)
            #expect(response.isVariant && !response.isFallback && response.source == .network)
            #expect(
                response.fetchedURL.absoluteString
                    == "http://127.0.0.1:\(origin.server.port)/photo.jpg?\(Self.variant)/ignore-error/1",
                "the rule maps the origin's host:port to Qiniu's imageView2")
            #expect(response.image.firstFrame.width == 750 && response.image.firstFrame.height == 500)
            #expect(response.cacheKey == pipeline.cacheKey(for: origin.photo))
            #expect(response.cacheKey.contains("format/webp"), "the key is the rewritten URL")
            #expect(origin.upstream.targets == ["/photo.jpg?\(Self.variant)/ignore-error/1"])
            let webpBytesBefore = pipeline.trafficMeter.snapshot.networkBytesByFormat["webp"] ?? 0
            #expect(webpBytesBefore > 0)
            // Without a bytes cache the bytes come from the network again.
            let data = try await pipeline.data(for: origin.photo)
            #expect(data.format == .webp && data.isVariant && data.source == .network)
            #expect(pipeline.trafficMeter.snapshot.networkBytesByFormat["webp"] == webpBytesBefore + data.data.count)
            #expect(origin.upstream.requestCount(containing: "photo.jpg") == 2)
        }
    }

    @Test func secondRequestIsAMemoryHitWithoutNetwork() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            _ = try await pipeline.image(for: origin.photo)
            let bytesBefore = pipeline.trafficMeter.snapshot.networkBytes
            let again = try await pipeline.image(for: origin.photo)
            #expect(again.source == .memory)
            #expect(origin.upstream.targets.count == 1)
            #expect(pipeline.trafficMeter.snapshot.networkBytes == bytesBefore)
            #expect(pipeline.trafficMeter.snapshot.memoryHits == 1)
        }
    }

    @Test func fiftyConcurrentRequestsMakeOneUpstreamRequest() async throws {
        try await LiveOrigin.with { origin in
            // No bytes cache: only coalescing can keep this to one request.
            let pipeline = try origin.pipeline()
            origin.upstream.inject(.hold, whereTargetContains: "photo.jpg")
            let key = pipeline.cacheKey(for: origin.photo)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await pipeline.image(for: origin.photo).image.firstFrame.width }
                }
                // Every caller has joined the one run before the fetch may finish.
                await origin.upstream.waitUntilHeld(1)
                await pipeline.waitUntilImageCallers(for: key, count: 50)
                #expect(origin.upstream.heldCount == 1)
                origin.upstream.release()
                var widths: [Int] = []
                for try await width in group { widths.append(width) }
                #expect(widths == Array(repeating: 750, count: 50))
            }
            #expect(origin.upstream.requestCount(containing: "photo.jpg") == 1)
            #expect(pipeline.trafficMeter.snapshot.networkRequests == 1)
            #expect(pipeline.activeFetchCount == 0)
        }
    }

    @Test(arguments: [
        FaultInjectingOrigin.Fault.status(404), .html, .truncate, .hold,
    ])
    func aFailedVariantFallsBackToTheOriginal(_ fault: FaultInjectingOrigin.Fault) async throws {
        try await LiveOrigin.with { origin in
            // A held variant times out; the original, a file, is answered at once.
            let pipeline = try origin.pipeline(
                timeout: {
                    if case .hold = fault { return .seconds(3) } else { return .seconds(60) }
                }())
            origin.upstream.inject(fault, whereTargetContains: Self.variant)
            let response = try await pipeline.image(for: origin.photo)
            #expect(response.isFallback && !response.isVariant)
            #expect(response.fetchedURL == origin.photo)
            #expect(response.image.firstFrame.width == 1200, "the original, as published")
            #expect(pipeline.trafficMeter.snapshot.fallbacks == 1)
            #expect(origin.upstream.targets == ["/photo.jpg?\(Self.variant)/ignore-error/1", "/photo.jpg"])

            // The failure is remembered: the variant is not retried for a while.
            pipeline.removeCached(origin.photo)
            _ = try await pipeline.data(for: origin.photo)
            #expect(origin.upstream.requestCount(containing: Self.variant) == 1)
            #expect(origin.upstream.targets.last == "/photo.jpg")
        }
    }

    @Test func theNegativeCacheExpires() async throws {
        try await LiveOrigin.with { origin in
            let clock = TestClock()
            let pipeline = try origin.pipeline(now: { clock.now() })
            origin.upstream.inject(.status(404), whereTargetContains: Self.variant)
            #expect(try await pipeline.data(for: origin.photo).isFallback)
            origin.upstream.removeFaults(whereTargetContains: Self.variant)
            clock.advance(by: 301)
            pipeline.removeCached(origin.photo)
            let response = try await pipeline.data(for: origin.photo)
            #expect(response.isVariant, "after the negative lifetime the variant is tried again")
        }
    }

    @Test func whenTheOriginalFailsTooTheErrorSaysWhy() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            origin.upstream.inject(.status(500), whereTargetContains: "photo.jpg")
            let error = try await #require(throws: ImagePipelineError.self) {
                try await pipeline.image(for: origin.photo)
            }
            #expect(error.httpStatus == 500)
            #expect(error.description.contains(origin.photo.absoluteString))
        }
    }

    @Test func urlsNoRuleRewritesAreFetchedAsTheyAre() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            // The rule is for 127.0.0.1; the same server by another name is not rewritten.
            let foreign = URL(string: "http://localhost:\(origin.server.port)/photo.jpg")!
            let response = try await pipeline.data(for: foreign)
            #expect(!response.isVariant && !response.isFallback && response.format == .jpeg)
            #expect(origin.upstream.targets == ["/photo.jpg"])
        }
    }

    @Test func alphaSurvivesAsWebP() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            let response = try await pipeline.image(for: origin.logo)
            #expect(response.isVariant)
            #expect(!response.image.firstFrame.isOpaque)
        }
    }

    /// With a bytes cache, prefetch stores bytes and display decodes them
    /// (a disk hit); without one, prefetch decodes into memory (a memory hit).
    @Test(arguments: [true, false])
    func prefetchThenDisplayIsAHit(withBytesCache: Bool) async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline(dataCache: withBytesCache ? MemoryDataCache() : nil)
            pipeline.prefetch([origin.photo, origin.logo])
            await pipeline.waitUntilPrefetchesFinished()
            #expect(origin.upstream.targets.count == 2)
            let bytesBefore = pipeline.trafficMeter.snapshot.networkBytes
            let response = try await pipeline.image(for: origin.photo)
            #expect(response.source == (withBytesCache ? .disk : .memory) && response.isVariant)
            #expect(origin.upstream.targets.count == 2, "display after prefetch makes no request")
            #expect(pipeline.trafficMeter.snapshot.networkBytes == bytesBefore)
        }
    }

    @Test func cancellingOneOfTwoCallersKeepsTheFetch() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            origin.upstream.inject(.hold, whereTargetContains: "photo.jpg")
            let first = Task { try await pipeline.image(for: origin.photo) }
            await origin.upstream.waitUntilHeld(1)
            let second = Task { try await pipeline.image(for: origin.photo) }
            // The second caller has joined the first's run before the first leaves.
            let key = pipeline.cacheKey(for: origin.photo)
            await pipeline.waitUntilImageCallers(for: key, count: 2)
            first.cancel()
            let cancelled = await #expect(throws: ImagePipelineError.self) { try await first.value }
            #expect(cancelled?.isCancellation == true)
            origin.upstream.release()
            let image = try await second.value
            #expect(image.image.firstFrame.width == 750)
            #expect(origin.upstream.requestCount(containing: "photo.jpg") == 1)
        }
    }

    @Test func cancellingEveryCallerStopsTheWorkAndClosesTheConnection() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            origin.upstream.inject(.hold, whereTargetContains: "photo.jpg")
            let task = Task { try await pipeline.data(for: origin.photo) }
            await origin.upstream.waitUntilHeld(1)
            #expect(pipeline.activeFetchCount == 1)
            task.cancel()
            let cancelled = await #expect(throws: ImagePipelineError.self) { try await task.value }
            #expect(cancelled?.isCancellation == true)
            await pipeline.waitUntilNoActiveFetch()
            // The loader closed its connection: once the held answer goes out,
            // the server finds nobody there and has no connection left.
            // (A transfer still running would keep it open for reuse.)
            origin.upstream.release()
            await origin.server.waitUntilNoOpenConnection()
            #expect(origin.upstream.targets == ["/photo.jpg?\(Self.variant)/ignore-error/1"], "no fallback fetch")
            // A new request starts a fresh fetch.
            let response = try await pipeline.data(for: origin.photo)
            #expect(response.isVariant)
        }
    }

    @Test func nativeCallersFollowRedirects() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            origin.upstream.inject(
                .redirect(to: "/photo.jpg?\(Self.variant)/ignore-error/1"), whereTargetContains: "/old.jpg")
            let response = try await pipeline.image(for: origin.url("/old.jpg"))
            #expect(response.isVariant && !response.isFallback)
            #expect(response.fetchedURL.path == "/photo.jpg", "the URL that answered, after the redirect")
            #expect(response.image.firstFrame.width == 750)
            #expect(origin.upstream.targets.count == 2)
        }
    }

    @Test func aReportedRedirectIsNeitherAFailureNorFollowed() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline()
            origin.upstream.inject(.redirect(to: "/photo.jpg"), whereTargetContains: "/old.jpg")
            let old = origin.url("/old.jpg")
            let error = try await #require(throws: ImagePipelineError.self) {
                try await pipeline.data(for: ImageRequest(url: old, redirects: .report))
            }
            let redirect = try #require(error.redirect)
            #expect(redirect.statusCode == 302)
            #expect(redirect.location == origin.photo, "resolved against the URL that answered")
            #expect(redirect.isVariant && redirect.redirectedURL.query?.contains(Self.variant) == true)
            #expect(error.description.contains("redirected (HTTP 302) to \(origin.photo.absoluteString)"))
            #expect(origin.upstream.targets == ["/old.jpg?\(Self.variant)/ignore-error/1"], "not followed, no fallback")
            #expect(pipeline.trafficMeter.snapshot.fallbacks == 0)
            // Not remembered as a failed variant: a native caller tries it and follows.
            let followed = try await pipeline.data(for: old)
            #expect(followed.fetchedURL == origin.photo && followed.format == .jpeg, "the redirect dropped the query")
            #expect(origin.upstream.requestCount(containing: "/old.jpg?\(Self.variant)") == 2)
        }
    }
}
