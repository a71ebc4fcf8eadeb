import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Matched images: WebP to WebP clients, JPEG / PNG / APNG to the others,
/// with `Vary`, the upstream's cache headers and a new `ETag`.
@Suite(.timeLimit(.suiteBound))
struct ImagePathTests {
    @Test func webPClientGetsTheVariantWithVaryAccept() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/webp")
        #expect(try ImageFormat.sniff(response.bodyData) == .webp)
        #expect(response.headers["Vary"] == "Accept")
        #expect(response.headers["Via"] == "1.1 webp-bridge")
        #expect(response.headers["ETag"]?.hasPrefix("\"wb-") == true)
        #expect(response.bodyData.count < fixture.photoJPEG.count)
        let fetched = fixture.upstream.requests.map(\.url.absoluteString)
        #expect(fetched.contains { $0.contains("imageView2") && $0.contains("format/webp") }, "\(fetched)")
    }

    @Test func cacheHitsForAWebPClientAreAnsweredOnTheServersThread() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let webP = HTTPRequest.webView("/photo.jpg", accept: BridgeFixture.webPAccept)
        #expect(bridge.immediateResponse(to: webP) == nil, "a miss waits for the network")
        let fetched = await bridge.handle(webP)
        let upstreamRequests = fixture.upstream.requests.count

        let hit = try #require(bridge.immediateResponse(to: webP))
        #expect(hit.status == .ok)
        #expect(hit.bodyData == fetched.bodyData)
        for name in ["Content-Type", "ETag", "Vary", "Via", "Cache-Control"] {
            #expect(hit.headers[name] == fetched.headers[name], "\(name)")
        }
        #expect(hit.headers[BridgeDiagnosticHeader.wireBytes] == "0")
        var conditional = webP
        conditional.headers.add(name: "If-None-Match", value: try #require(fetched.headers["ETag"]))
        #expect(bridge.immediateResponse(to: conditional)?.status == .notModified)
        #expect(fixture.upstream.requests.count == upstreamRequests, "no upstream request for a hit")

        // What needs transcoding, passing through or the network is left to handle(_:).
        #expect(bridge.immediateResponse(to: .webView("/photo.jpg")) == nil, "a transcode")
        #expect(bridge.immediateResponse(to: HTTPRequest(target: "/index.html")) == nil, "a passthrough")
        #expect(bridge.immediateResponse(to: HTTPRequest(target: "/__bridge/healthz"))?.status == .ok)
        #expect(bridge.metrics.render().contains("webpbridge_proxy_requests_total{outcome=\"webp\"} 2"))
    }

    @Test func repeatedHitsAreServedOnlyWhileTheCacheHoldsTheImage() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let webP = HTTPRequest.webView("/photo.jpg", accept: BridgeFixture.webPAccept)
        let fetched = await bridge.handle(webP)
        let first = try #require(bridge.immediateResponse(to: webP))
        let hitsBefore = bridge.configuration.pipeline.trafficMeter.snapshot.diskHits
        let again = try #require(bridge.immediateResponse(to: webP), "the memoised answer")
        #expect(again == first)
        #expect(again.bodyData == fetched.bodyData)
        #expect(bridge.configuration.pipeline.trafficMeter.snapshot.diskHits == hitsBefore + 1, "still counted")

        // Once the pipeline forgets the image, nothing is answered from memory.
        bridge.configuration.pipeline.removeCached(URL(string: "http://img.test/photo.jpg")!)
        #expect(bridge.immediateResponse(to: webP) == nil)
        let refetched = await bridge.handle(webP)
        #expect(refetched.bodyData == fetched.bodyData)
        #expect(bridge.immediateResponse(to: webP)?.bodyData == fetched.bodyData)
    }

    @Test func responsesSayWhatTheUpstreamCost() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let first = await bridge.handle(.webView("/photo.jpg"))
        let variantBytes = Int(first.headers[BridgeDiagnosticHeader.wireBytes] ?? "")
        #expect(variantBytes.map { $0 > 0 && $0 < fixture.photoJPEG.count } == true, "the WebP variant's size")
        #expect(variantBytes != first.bodyData.count, "the network cost, not the transcoded body's size")
        let hit = await bridge.handle(.webView("/photo.jpg"))
        #expect(hit.headers[BridgeDiagnosticHeader.wireBytes] == "0", "a cache hit costs the network nothing")
        let page = await bridge.handle(HTTPRequest(target: "/index.html"))
        #expect(page.headers[BridgeDiagnosticHeader.wireBytes] == String(page.bodyData.count))
        let health = await bridge.handle(HTTPRequest(target: "/__bridge/healthz"))
        #expect(health.headers[BridgeDiagnosticHeader.wireBytes] == nil)
    }

    @Test func aTranscodeLargerThanTheOriginalIsDeliveredWithoutFetchingTheOriginal() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let first = await bridge.handle(.webView("/flat.png"))
        #expect(first.status == .ok)
        #expect(try ImageFormat.sniff(first.bodyData) == .png)
        #expect(first.bodyData.count > fixture.flatPNG.count, "the fixture's transcode outweighs its original")
        // Bytes over loopback cost nothing; bytes on the network are what the bridge saves.
        let fetched = fixture.upstream.requests.map { "\($0.method) \($0.url.absoluteString)" }
        #expect(fetched.count == 1 && fetched[0].contains("format/webp"), "the variant alone: \(fetched)")
        #expect(first.headers[BridgeDiagnosticHeader.wireBytes] == String(fixture.busyAlphaWebP.count))
    }

    @Test func webKitWithoutWebPGetsJPEGForAnOpaquePhoto() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(.webView("/photo.jpg"))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/jpeg")
        #expect(try ImageFormat.sniff(response.bodyData) == .jpeg)
        #expect(response.headers["Vary"] == "Accept")
        let decoded = try ImageDecoder().decode(response.bodyData).firstFrame
        #expect(decoded.width == 750, "the 750-wide variant, transcoded, not the 1200-wide original")
        #expect(bridge.metrics.render().contains("webpbridge_proxy_requests_total{outcome=\"transcoded\"} 1"))
    }

    @Test func alphaImageBecomesPNG() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(.webView("/logo.png"))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/png")
        #expect(try ImageFormat.sniff(response.bodyData) == .png)
    }

    @Test func animatedWebPBecomesAPNG() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(.webView("/anim.webp"))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/apng")
        #expect(try ImageFormat.sniff(response.bodyData) == .apng)
        guard case .animated(let animation) = try ImageDecoder().decode(response.bodyData) else {
            Issue.record("APNG did not decode as an animation")
            return
        }
        #expect(animation.frames.count == 4)
    }

    @Test func upstreamCacheHeadersAndAStableETagAnswerConditionals() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let first = await bridge.handle(.webView("/photo.jpg"))
        let etag = try #require(first.headers["ETag"])
        let again = await bridge.handle(.webView("/photo.jpg"))
        #expect(again.headers["ETag"] == etag, "same bytes, same tag")
        let webP = await bridge.handle(.webView("/photo.jpg", accept: BridgeFixture.webPAccept))
        #expect(webP.headers["ETag"] != etag, "another representation, another tag")

        var conditional = HTTPRequest.webView("/photo.jpg")
        conditional.headers.add(name: "If-None-Match", value: etag)
        let notModified = await bridge.handle(conditional)
        #expect(notModified.status == .notModified)
        #expect(notModified.headers["Vary"] == "Accept")
        #expect(notModified.headers["ETag"] == etag)
        #expect(notModified.bodyData.isEmpty)
    }

    @Test func legacyPolicyDecidesOnTheUserAgentAloneAndVariesOnIt() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge(policy: .legacy)
        let webView = await bridge.handle(.webView("/photo.jpg"))
        #expect(webView.headers["Content-Type"] == "image/jpeg")
        #expect(webView.headers["Vary"] == "Accept, User-Agent")

        // Chrome's User-Agent contains AppleWebKit too: the legacy rule looks at the
        // User-Agent alone, as the original app did, so Chrome is transcoded for.
        let chrome = await bridge.handle(
            HTTPRequest(
                target: "/photo.jpg",
                headers: [
                    "User-Agent": ClientProfile.chrome.userAgent,
                    "Accept": BridgeFixture.webPAccept,
                ]))
        #expect(chrome.headers["Content-Type"] == "image/jpeg")

        // The legacy app never rewrote on iPads: the original passes through.
        let iPad = await bridge.handle(
            HTTPRequest(
                target: "/photo.jpg",
                headers: [
                    "User-Agent": ClientProfile.iPadWebView.userAgent,
                    "Accept": BridgeFixture.noWebPAccept,
                ]))
        #expect(iPad.bodyData == fixture.photoJPEG)
        #expect(iPad.headers["Vary"] == "Accept, User-Agent")

        // Not a WebKit client: the legacy policy passes the original through, still varying.
        let curl = await bridge.handle(
            HTTPRequest(target: "/photo.jpg", headers: ["User-Agent": ClientProfile.curl.userAgent]))
        #expect(curl.status == .ok)
        #expect(curl.bodyData == fixture.photoJPEG)
        #expect(curl.headers["Vary"] == "Accept, User-Agent")
    }

    @Test func noTransformOnTheUpstreamResponseDeliversTheOriginalUntouched() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(.webView("/nt.jpg"))
        #expect(response.status == .ok)
        #expect(response.bodyData == fixture.photoJPEG, "the original's bytes, not a transcode of the variant")
        #expect(response.headers["Cache-Control"] == "public, no-transform")
        #expect(fixture.upstream.requests.last?.url.absoluteString == "http://img.test/nt.jpg")
    }

    @Test func originalsFetchedForAClientWithoutWebPRefuseWebP() async throws {
        // Under the legacy rule Chrome is transcoded for although its Accept lists WebP;
        // when the original passes through instead, a negotiating upstream must not
        // answer it with WebP.
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge(policy: .legacy)
        let response = await bridge.handle(.webView("/nt.jpg", accept: BridgeFixture.webPAccept))
        #expect(response.bodyData == fixture.photoJPEG)
        let accept = try #require(fixture.upstream.requests.last?.headers["accept"])
        #expect(!AcceptHeader.acceptsWebP(accept), "\(accept)")
        #expect(accept.hasPrefix("image/apng"), "the client's other types are kept: \(accept)")
    }

    @Test func noTransformOnTheRequestPassesTheOriginalThrough() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        var request = HTTPRequest.webView("/photo.jpg")
        request.headers.add(name: "Cache-Control", value: "no-transform")
        let response = await bridge.handle(request)
        #expect(response.bodyData == fixture.photoJPEG)
        #expect(!fixture.upstream.requests.contains { $0.url.absoluteString.contains("imageView2") })
    }

    @Test func headAnswersLikeGetWithoutABodyOnTheWire() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let response = await bridge.handle(
            HTTPRequest(method: .head, target: "/photo.jpg", headers: ["Accept": BridgeFixture.webPAccept]))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/webp")
    }

    @Test func metricsNameEveryFamily() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        _ = await bridge.handle(.webView("/photo.jpg"))
        _ = await bridge.handle(.webView("/index.html"))
        let metrics = await bridge.handle(HTTPRequest(target: "/__bridge/metrics"))
        #expect(metrics.status == .ok)
        let text = metrics.bodyText
        for family in [
            "webpbridge_proxy_requests_total{outcome=\"transcoded\"} 1",
            "webpbridge_proxy_requests_total{outcome=\"passthrough\"} 1",
            "webpbridge_proxy_upstream_bytes_total{path=\"image\"}",
            "webpbridge_proxy_upstream_bytes_total{path=\"passthrough\"}",
            "webpbridge_proxy_client_bytes_total{path=\"image\"}",
            "webpbridge_proxy_original_bytes_total",
            "webpbridge_proxy_image_source_total{source=\"network\"} 1",
            "webpbridge_proxy_transcode_seconds_count 1",
            "webpbridge_proxy_transcodes_waiting 0",
        ] {
            #expect(text.contains(family), "missing \(family)")
        }
        let health = await bridge.handle(HTTPRequest(target: "/__bridge/healthz"))
        #expect(health.status == .ok)
        #expect(health.bodyText == "ok\n")
    }
}
