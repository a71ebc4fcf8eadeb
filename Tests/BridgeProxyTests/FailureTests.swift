import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Upstream failures: a broken variant still delivers an image, a dead
/// upstream gives a one-line 502, an overfull transcode queue gives 503
/// with `Retry-After` — and the bridge answers normally afterwards.
@Suite(.timeLimit(.suiteBound))
struct FailureTests {
    enum BrokenVariant: String, CaseIterable, Sendable {
        case notFound, htmlBody, truncatedWebP
    }

    @Test(arguments: BrokenVariant.allCases)
    func aBrokenVariantFallsBackToTheOriginal(broken: BrokenVariant) async throws {
        let fixture = try BridgeFixture()
        switch broken {
        case .notFound: fixture.upstream.inject(.status(404), whereURLContains: "imageView2")
        case .htmlBody: fixture.upstream.inject(.html, whereURLContains: "imageView2")
        case .truncatedWebP: fixture.upstream.inject(.truncate, whereURLContains: "imageView2")
        }
        let bridge = try fixture.bridge()
        for accept in [BridgeFixture.noWebPAccept, BridgeFixture.webPAccept] {
            let response = await bridge.handle(.webView("/photo.jpg", accept: accept))
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "image/jpeg")
            #expect(response.bodyData == fixture.photoJPEG, "the original, untouched: it is already JPEG")
            #expect(response.headers["Vary"] == "Accept")
        }
        let metrics = bridge.metrics.render()
        #expect(metrics.contains("webpbridge_proxy_requests_total{outcome=\"fallback\"} 2"), "\(metrics)")
        #expect(metrics.contains("webpbridge_proxy_original_bytes_total \(2 * fixture.photoJPEG.count)"))
    }

    @Test(arguments: [DataLoadingError.Kind.cannotConnect, .timedOut])
    func aDeadUpstreamGivesAOneLine502(kind: DataLoadingError.Kind) async throws {
        let fixture = try BridgeFixture()
        fixture.upstream.inject(.fail(kind))
        let bridge = try fixture.bridge()
        for request in [
            HTTPRequest.webView("/photo.jpg"), .webView("/index.html"), HTTPRequest(method: .post, target: "/echo"),
        ] {
            let response = await bridge.handle(request)
            #expect(response.status == .badGateway)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true, "never a broken image")
            let lines = response.bodyText.split(separator: "\n")
            #expect(lines.count == 1, "\(response.bodyText)")
            #expect(response.bodyText == "the bridge could not get an answer from the upstream\n")
            #expect(response.headers["Via"] == "1.1 webp-bridge")
        }
        #expect(bridge.metrics.render().contains("webpbridge_proxy_requests_total{outcome=\"error\"} 3"))
    }

    @Test func anOversizedPassthroughBodyGives502() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge { $0.limits.maxPassthroughBodyBytes = 8 }
        let response = await bridge.handle(HTTPRequest(target: "/index.html"))
        #expect(response.status == .badGateway)
        #expect(response.bodyText.contains("larger than the bridge's limit"))
    }

    @Test func imagesAboveTheTranscodeLimitPassThroughUntransformed() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge { $0.limits.maxTranscodeInputBytes = 1024 }
        let response = await bridge.handle(.webView("/photo.jpg"))
        #expect(response.status == .ok)
        #expect(response.bodyData == fixture.photoJPEG, "the original, not a transcode of a too-large variant")
        // A WebP client needs no transcode: it still gets the variant.
        let webP = await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept))
        #expect(webP.headers["Content-Type"] == "image/webp")
    }

    @Test func anOverfullTranscodeQueueGives503AndTheBridgeRecovers() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge {
            $0.transcodeConcurrency = 1
            $0.transcodeQueueLimit = 0
            $0.retryAfterSeconds = 2
        }
        // Warm the pipeline so the request below reaches the queue at once.
        #expect(await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept)).status == .ok)

        // Hold the only transcode slot until the refused request has been answered.
        let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await bridge.transcodeQueue.withSlot {
                enteredContinuation.yield()
                for await _ in release { break }
            }
        }
        for await _ in entered { break }
        let refused = await bridge.handle(.webView("/photo.jpg"))
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] == "2")
        // Requests that need no transcode are not held up by the queue.
        #expect(await bridge.handle(.webView("/index.html")).status == .ok)
        #expect(await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept)).status == .ok)
        releaseContinuation.yield()
        try await holder.value

        let after = await bridge.handle(.webView("/photo.jpg"))
        #expect(after.status == .ok)
        #expect(after.headers["Content-Type"] == "image/jpeg")
        #expect(bridge.metrics.render().contains("webpbridge_proxy_requests_total{outcome=\"overloaded\"} 1"))
    }

    @Test func aBurstOfTranscodesIsAnsweredWith200Or503Only() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge {
            $0.transcodeConcurrency = 1
            $0.transcodeQueueLimit = 1
        }
        let statuses = await withTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<12 {
                group.addTask {
                    let response = await bridge.handle(.webView("/photo.jpg"))
                    return (response.status.code, response.headers["Retry-After"])
                }
            }
            var all: [(Int, String?)] = []
            for await status in group { all.append(status) }
            return all
        }
        #expect(statuses.allSatisfy { $0.0 == 200 || ($0.0 == 503 && $0.1 == "1") }, "\(statuses)")
        #expect(statuses.contains { $0.0 == 200 })
        #expect(await bridge.handle(.webView("/photo.jpg")).status == .ok)
    }
}
