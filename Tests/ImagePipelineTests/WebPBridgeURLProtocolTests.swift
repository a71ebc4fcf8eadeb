import Foundation
import ImageCodecs
import ImagePipeline
import TestSupport
import Testing
import URLRewriting
import WebPURLProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The in-process bridge through a real URLSession. Each test registers
/// its own pipeline for the `img.test` host and unregisters it after;
/// serialized, because the newest registration for a host claims requests.
@Suite(.serialized)
final class WebPBridgeURLProtocolTests: Sendable {
    static let webView =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"

    let fixture: PipelineFixture
    let pipeline: ImagePipeline
    let session: URLSession
    let registration: WebPBridgeURLProtocol.Registration

    init() throws {
        fixture = try PipelineFixture()
        pipeline = try fixture.pipeline(diskCache: MemoryDataCache())
        registration = WebPBridgeURLProtocol.register(.init(pipeline: pipeline, policy: .legacy))
        session = URLSession(configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .ephemeral))
    }

    deinit {
        WebPBridgeURLProtocol.unregister(registration)
        session.finishTasksAndInvalidate()
    }

    func request(_ url: URL, userAgent: String = WebPBridgeURLProtocolTests.webView, accept: String = "image/*") -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(accept, forHTTPHeaderField: "Accept")
        return request
    }

    @Test func aWebViewGetsJPEGForAPhotoAndPNGForAlpha() async throws {
        let (photo, photoResponse) = try await session.data(for: request(PipelineFixture.photo))
        let http = try #require(photoResponse as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == String(photo.count))
        #expect(http.value(forHTTPHeaderField: "Vary") == "Accept, User-Agent")
        #expect(try JPEGDecoder().readHeader(photo).width == 750)
        let (logo, logoResponse) = try await session.data(for: request(PipelineFixture.logo))
        #expect((logoResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(try !PNGDecoder().decode(logo).isOpaque, "alpha decided from the pixels")
    }

    @Test func aNativeLoadAfterABridgedOneCostsNoNetworkBytes() async throws {
        _ = try await session.data(for: request(PipelineFixture.photo))
        let before = pipeline.trafficMeter.snapshot.networkBytes
        #expect(before > 0)
        let native = try await pipeline.image(for: PipelineFixture.photo)
        #expect(native.isVariant)
        #expect(pipeline.trafficMeter.snapshot.networkBytes == before, "one cache entry, keyed by the rewritten URL")
    }

    @Test func unclaimedRequestsAreLeftAlone() throws {
        #expect(!WebPBridgeURLProtocol.canInit(with: request(PipelineFixture.photo, userAgent: "NewsApp/3 CFNetwork")))
        var post = request(PipelineFixture.photo)
        post.httpMethod = "POST"
        #expect(!WebPBridgeURLProtocol.canInit(with: post))
        #expect(!WebPBridgeURLProtocol.canInit(with: request(URL(string: "http://img.test/anim.gif")!)))
        #expect(!WebPBridgeURLProtocol.canInit(with: request(URL(string: "http://other.test/photo.jpg")!)))
        #expect(WebPBridgeURLProtocol.canInit(with: request(PipelineFixture.photo)))
    }

    @Test func aClientThatAcceptsWebPGetsWebP() async throws {
        // The `accept` policy negotiates (the legacy one looks at the User-Agent only).
        let negotiating = WebPBridgeURLProtocol.register(.init(pipeline: pipeline, policy: .standard))
        defer { WebPBridgeURLProtocol.unregister(negotiating) }
        let (data, response) = try await session.data(for: request(PipelineFixture.photo, accept: "image/webp,*/*"))
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/webp")
        #expect(try ImageFormat.sniff(data) == .webp)
    }

    @Test func upstreamFailuresReachTheClientAsTheMatchingError() async throws {
        fixture.loader.inject(.status(404), whereURLContains: "missing")
        let (_, missing) = try await session.data(for: request(URL(string: "http://img.test/missing.jpg")!))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        // A dead upstream is a transport error, not a broken image.
        let dead = URLError(.cannotConnectToHost)
        #expect(
            WebPBridgeURLProtocol.urlErrorCode(for: DataLoadingError(.cannotConnect, "refused")) == dead.code)
    }

    @Test func stopLoadingCancelsTheWorkAndNothingArrivesAfter() async throws {
        fixture.loader.inject(.delay(.seconds(300)), whereURLContains: "photo.jpg")
        let task = Task { try await session.data(for: request(PipelineFixture.photo)) }
        try await waitUntil { fixture.loader.requests.count == 1 }
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("a cancelled load must not deliver data")
            return
        }
        #expect((error as? URLError)?.code == .cancelled)
        try await waitUntil { fixture.loader.cancelledCount == 1 }
        #expect(fixture.loader.requests.count == 1, "the cancelled variant was not followed by a fallback fetch")
    }
}
