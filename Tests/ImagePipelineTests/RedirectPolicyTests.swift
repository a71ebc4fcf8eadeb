import Foundation
import PipelineTestSupport
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The pipeline follows redirects itself, hop by hop, asking its
/// ``RedirectPolicy`` before each one: a hop the policy refuses, or one past
/// its bound, is never fetched, and the fetch fails saying so.
@Suite(.timeLimit(.suiteBound))
struct RedirectPolicyTests {
    static let variant = LiveOrigin.variantQuery

    @Test func aHopThePolicyRefusesIsNeverFetched() async throws {
        try await LiveOrigin.with { origin in
            // Same server under another name: a fetch of the target would show at the origin.
            let elsewhere = origin.url("/photo.jpg", host: "localhost")
            let policy = RedirectPolicy(name: "127.0.0.1 only") { $0.host == "127.0.0.1" }
            let pipeline = try origin.pipeline(redirectPolicy: policy)
            origin.upstream.inject(.redirect(to: elsewhere.absoluteString), whereTargetContains: "/old.jpg")
            let error = try await #require(throws: ImagePipelineError.self) {
                try await pipeline.data(for: origin.url("/old.jpg"))
            }
            let refused = try #require(error.refusedRedirect)
            #expect(refused.location == elsewhere)
            #expect(error.description.contains("not followed: the target is outside 127.0.0.1 only"))
            #expect(origin.upstream.requestCount(containing: "/photo.jpg") == 0, "\(origin.upstream.targets)")
            #expect(
                origin.upstream.targets == ["/old.jpg?\(Self.variant)/ignore-error/1", "/old.jpg"],
                "the variant failed, the original was tried, neither hop was fetched")
        }
    }

    @Test func aHopInsideThePolicyIsFollowed() async throws {
        try await LiveOrigin.with { origin in
            let policy = RedirectPolicy(name: "127.0.0.1 only") { $0.host == "127.0.0.1" }
            let pipeline = try origin.pipeline(redirectPolicy: policy)
            origin.upstream.inject(.redirect(to: "/photo.jpg?\(Self.variant)"), whereTargetContains: "/old.jpg")
            let response = try await pipeline.data(for: origin.url("/old.jpg"))
            #expect(response.fetchedURL == origin.url("/photo.jpg?\(Self.variant)"))
            #expect(response.format == .webp)
            #expect(pipeline.trafficMeter.snapshot.networkBytesByFormat["redirect"] != nil)
        }
    }

    @Test func hopsAreBoundedByThePolicy() async throws {
        try await LiveOrigin.with { origin in
            // The 4 requests of a chain share one deadline. Under TSan, on two
            // busy cores, the count was twice 5 (1 + 4), which a variant chain
            // timing out after 1 request would give. The suite's time limit,
            // not this deadline, bounds a hang here.
            let pipeline = try origin.pipeline(
                timeout: .seconds(30 * 60), redirectPolicy: RedirectPolicy(name: "any", maxHops: 3) { _ in true })
            origin.upstream.inject(.redirect(to: "/loop.jpg"), whereTargetContains: "/loop.jpg")
            let error = try await #require(throws: ImagePipelineError.self) {
                try await pipeline.data(for: origin.url("/loop.jpg"))
            }
            #expect(error.refusedRedirect != nil)
            #expect(error.description.contains("more than 3 redirects"))
            // The variant and then the original: each the first request and 3 hops.
            #expect(origin.upstream.requestCount(containing: "/loop.jpg") == 2 * (1 + 3))
        }
    }

    @Test func theDefaultsFollowAnyHTTPURLFiveTimesAndNeverOtherSchemes() throws {
        #expect(RedirectPolicy.anyHTTP.maxHops == 5)
        #expect(RedirectPolicy.anyHTTP.allows(URL(string: "https://elsewhere.test/a.jpg")!))
        #expect(!RedirectPolicy.anyHTTP.allows(URL(string: "file:///etc/passwd")!))
        #expect(!RedirectPolicy.anyHTTP.allows(URL(string: "gopher://a.test/")!))
        #expect(RedirectPolicy.never.maxHops == 0)
    }
}
