import Foundation
import PipelineTestSupport
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPURLProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The in-process bridge through a real URLSession, in front of a live
/// origin. Each test registers its own pipeline and unregisters it after;
/// serialized, because the newest registration claims requests. The rule is
/// for `localhost` (the same loopback server): the `fetch` command's tests,
/// running in parallel, register bindings for `127.0.0.1`.
@Suite(.serialized, .timeLimit(.suiteBound))
struct WebPBridgeURLProtocolTests {
    static let webView = ClientProfile.iOSWebView.userAgent
    static let variant = LiveOrigin.variantQuery

    /// A live origin, a pipeline bound to the bridge, and a session with the
    /// bridge installed; unregistered and invalidated afterwards.
    struct Bridge {
        let origin: LiveOrigin
        let pipeline: ImagePipeline
        let session: URLSession

        func url(_ path: String) -> URL { origin.url(path, host: "localhost") }
    }

    func withBridge(
        delegate: (any URLSessionDelegate)? = nil, redirectPolicy: RedirectPolicy = .anyHTTP,
        _ body: (Bridge) async throws -> Void
    ) async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline(
                host: "localhost", dataCache: MemoryDataCache(), redirectPolicy: redirectPolicy)
            try await withRegistration(pipeline: pipeline, policy: .legacy, delegate: delegate) { session in
                try await body(Bridge(origin: origin, pipeline: pipeline, session: session))
            }
        }
    }

    /// Registers the URL protocol over `pipeline` and runs `body` with a
    /// session that has it installed; unregistered and invalidated afterwards.
    func withRegistration(
        pipeline: ImagePipeline, policy: ClientPolicy, delegate: (any URLSessionDelegate)? = nil,
        _ body: (URLSession) async throws -> Void
    ) async throws {
        let registration = WebPBridgeURLProtocol.register(.init(pipeline: pipeline, policy: policy))
        let session = URLSession(
            configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .ephemeral), delegate: delegate,
            delegateQueue: nil)
        defer {
            WebPBridgeURLProtocol.unregister(registration)
            session.finishTasksAndInvalidate()
        }
        try await body(session)
    }

    func request(_ url: URL, userAgent: String = Self.webView, accept: String = "image/*") -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(accept, forHTTPHeaderField: "Accept")
        return request
    }

    @Test func aWebViewGetsJPEGForAPhotoAndPNGForAlpha() async throws {
        try await withBridge { bridge in
            let (photo, photoResponse) = try await bridge.session.data(for: request(bridge.url("/photo.jpg")))
            let http = try #require(photoResponse as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            #expect(http.value(forHTTPHeaderField: "Content-Length") == String(photo.count))
            #expect(http.value(forHTTPHeaderField: "Vary") == "Accept, User-Agent")
            #expect(try JPEGDecoder().readHeader(photo).width == 750)
            let (logo, logoResponse) = try await bridge.session.data(for: request(bridge.url("/logo.png")))
            #expect((logoResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/png")
            #expect(try !PNGDecoder().decode(logo).isOpaque, "alpha decided from the pixels")
            #expect(
                bridge.origin.upstream.targets == [
                    "/photo.jpg?\(Self.variant)/ignore-error/1", "/logo.png?\(Self.variant)/ignore-error/1",
                ], "the WebP variants were fetched, never the originals")
        }
    }

    @Test func aNativeLoadAfterABridgedOneCostsNoNetworkBytes() async throws {
        try await withBridge { bridge in
            let photo = bridge.url("/photo.jpg")
            let (jpeg, _) = try await bridge.session.data(for: request(photo))
            #expect(try ImageFormat.sniff(jpeg) == .jpeg)
            let before = bridge.pipeline.trafficMeter.snapshot.networkBytes
            #expect(before > 0)
            let native = try await bridge.pipeline.image(for: photo)
            #expect(native.isVariant && native.source == .disk)
            #expect(
                bridge.pipeline.trafficMeter.snapshot.networkBytes == before,
                "one cache entry, keyed by the rewritten URL")
            #expect(bridge.origin.upstream.targets.count == 1)
        }
    }

    @Test func unclaimedRequestsAreLeftAlone() async throws {
        try await withBridge { bridge in
            let photo = bridge.url("/photo.jpg")
            #expect(!WebPBridgeURLProtocol.canInit(with: request(photo, userAgent: ClientProfile.nativeApp.userAgent)))
            var post = request(photo)
            post.httpMethod = "POST"
            #expect(!WebPBridgeURLProtocol.canInit(with: post))
            #expect(!WebPBridgeURLProtocol.canInit(with: request(bridge.url("/anim.gif"))))
            #expect(!WebPBridgeURLProtocol.canInit(with: request(URL(string: "http://other.test/photo.jpg")!)))
            #expect(WebPBridgeURLProtocol.canInit(with: request(photo)))
        }
    }

    @Test func aClientThatAcceptsWebPGetsWebP() async throws {
        try await withBridge { bridge in
            // The `accept` policy negotiates (the legacy one looks at the User-Agent only).
            let negotiating = WebPBridgeURLProtocol.register(.init(pipeline: bridge.pipeline, policy: .standard))
            defer { WebPBridgeURLProtocol.unregister(negotiating) }
            let (data, response) = try await bridge.session.data(
                for: request(bridge.url("/photo.jpg"), accept: "image/webp,*/*"))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/webp")
            #expect(try ImageFormat.sniff(data) == .webp)
        }
    }

    @Test func upstreamFailuresReachTheClientAsTheMatchingError() async throws {
        try await withBridge { bridge in
            // Variant and original both 404 (nothing by that name): the client gets the upstream's own
            // answer for the original, as the proxy's clients do.
            let (body, missing) = try await bridge.session.data(for: request(bridge.url("/missing.jpg")))
            #expect((missing as? HTTPURLResponse)?.statusCode == 404)
            #expect(!body.isEmpty, "the upstream's 404 body, not an empty one")
            #expect(
                bridge.origin.upstream.targets == [
                    "/missing.jpg?\(Self.variant)/ignore-error/1", "/missing.jpg", "/missing.jpg",
                ])
        }
        // A dead upstream is a transport error, not a broken image.
        let refused = try await LoopbackServer.refusedURL()
        let dead = URL(string: "http://localhost:\(refused.port!)/photo.jpg")!
        try await withBridge { bridge in
            let error = try await #require(throws: URLError.self) {
                try await bridge.session.data(for: request(dead))
            }
            #expect(error.code == .cannotConnectToHost)
        }
    }

    @Test func stopLoadingCancelsTheWorkAndNothingArrivesAfter() async throws {
        let events = SessionEvents()
        try await withBridge(delegate: events) { bridge in
            bridge.origin.upstream.inject(.hold, whereTargetContains: "photo.jpg")
            let task = bridge.session.dataTask(with: request(bridge.url("/photo.jpg")))
            task.resume()
            await bridge.origin.upstream.waitUntilHeld(1)
            task.cancel()
            await events.waitForCompletion()
            #expect(events.completion == .cancelled)
            // The pipeline gave up its fetch, and the loader its connection:
            // once the held answer goes out, the server has nobody to send it to.
            await bridge.pipeline.waitUntilNoActiveFetch()
            bridge.origin.upstream.release()
            await bridge.origin.server.waitUntilNoOpenConnection()
            #expect(bridge.origin.upstream.targets.count == 1, "the cancelled variant was not followed by a fallback")
            // Anything sent after stopLoading would have reached the delegate by now.
            let after = try await bridge.session.data(for: request(bridge.url("/logo.png")))
            #expect((after.1 as? HTTPURLResponse)?.statusCode == 200)
            #expect(events.receivedBytes(for: task.taskIdentifier) == 0)
            #expect(task.response == nil)
        }
    }

    // MARK: Redirects

    @Test func aRedirectReachesTheClientWhichGetsTheTargetsImage() async throws {
        try await withBridge { bridge in
            bridge.origin.upstream.inject(.redirect(to: "/photo.jpg"), whereTargetContains: "/old.jpg")
            let (body, response) = try await bridge.session.data(for: request(bridge.url("/old.jpg")))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url == bridge.url("/photo.jpg"), "the client knows where the image now lives")
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            #expect(try JPEGDecoder().readHeader(body).width == 750, "the target was claimed again and transcoded")
            #expect(
                bridge.origin.upstream.targets == [
                    "/old.jpg?\(Self.variant)/ignore-error/1", "/photo.jpg?\(Self.variant)/ignore-error/1",
                ], "the pipeline did not follow, nor fall back to /old.jpg")
            #expect(bridge.pipeline.trafficMeter.snapshot.fallbacks == 0)
        }
    }

    @Test func aRedirectToAnUnclaimedURLIsFetchedAsItIs() async throws {
        try await withBridge { bridge in
            bridge.origin.upstream.inject(.redirect(to: "/anim.gif"), whereTargetContains: "/moved.jpg")
            let (body, response) = try await bridge.session.data(for: request(bridge.url("/moved.jpg")))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url == bridge.url("/anim.gif"))
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/gif")
            #expect(body == (try Data(contentsOf: bridge.origin.folder.file("anim.gif"))), "GIFs are not touched")
        }
    }

    @Test func aRedirectLoopEndsWithTooManyRedirects() async throws {
        try await withBridge { bridge in
            bridge.origin.upstream.inject(.redirect(to: "/loop.jpg"), whereTargetContains: "/loop.jpg")
            let error = try await #require(throws: URLError.self) {
                try await bridge.session.data(for: request(bridge.url("/loop.jpg")))
            }
            #expect(error.code == .httpTooManyRedirects)
            #expect(
                bridge.origin.upstream.requestCount(containing: "/loop.jpg")
                    == WebPBridgeURLProtocol.maxRedirects + 1)
        }
    }

    #if canImport(FoundationNetworking)
        /// Where the bridge follows for the client (Linux), it follows only
        /// hops its pipeline's policy allows; any other redirect reaches the
        /// client as it is, and its target is never fetched.
        @Test func aRedirectOutsideThePolicyReachesTheClientUnfollowed() async throws {
            let policy = RedirectPolicy(name: "localhost only") { $0.host == "localhost" }
            try await withBridge(redirectPolicy: policy) { bridge in
                let elsewhere = bridge.origin.url("/photo.jpg")  // 127.0.0.1: the same server, another name
                bridge.origin.upstream.inject(.redirect(to: elsewhere.absoluteString), whereTargetContains: "/away.jpg")
                let (body, response) = try await bridge.session.data(for: request(bridge.url("/away.jpg")))
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 302)
                #expect(http.value(forHTTPHeaderField: "Location") == elsewhere.absoluteString)
                #expect(body.isEmpty)
                #expect(bridge.origin.upstream.requestCount(containing: "/photo.jpg") == 0)
            }
        }
    #endif

    @Test func theRedirectedRequestKeepsItsHeadersAndLosesTheMarker() throws {
        let original = request(URL(string: "http://img.example/old.jpg")!)
        let marked = try #require((original as NSURLRequest).mutableCopy() as? NSMutableURLRequest)
        URLProtocol.setProperty(true, forKey: WebPBridgeURLProtocol.handledKey, in: marked)
        let target = URL(string: "http://img.example/new.jpg")!
        let redirected = WebPBridgeURLProtocol.redirectedRequest(marked as URLRequest, to: target)
        #expect(redirected.url == target)
        #expect(redirected.value(forHTTPHeaderField: "User-Agent") == Self.webView)
        #expect(redirected.value(forHTTPHeaderField: "Accept") == "image/*")
        #expect(URLProtocol.property(forKey: WebPBridgeURLProtocol.handledKey, in: redirected) == nil)
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation drops protocol properties whenever a
            // request is copied or bridged (NSURLRequest.setValues(from:)
            // leaves them out), so no URLRequest there carries the marker.
            // Should this start failing, Foundation keeps them now, and the
            // check below applies on Linux too.
            #expect(URLProtocol.property(forKey: WebPBridgeURLProtocol.handledKey, in: marked as URLRequest) == nil)
        #else
            #expect(URLProtocol.property(forKey: WebPBridgeURLProtocol.handledKey, in: marked as URLRequest) != nil)
            #expect(!WebPBridgeURLProtocol.canInit(with: marked as URLRequest))
        #endif
    }
}

/// Records what a URLSession hands its delegate, per task.
final class SessionEvents: NSObject, URLSessionDataDelegate, Sendable {
    private struct State: WaitableState {
        var bytes: [Int: Int] = [:]
        var completion: URLError.Code?
        var waiters = StateWaiters<State>()
    }

    private let state = Lock(State())

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.bytes[dataTask.taskIdentifier, default: 0] += data.count }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLockWakingWaiters { $0.completion = (error as? URLError)?.code ?? URLError.Code(rawValue: 0) }
    }

    /// The code of the first task's completion (0 for success).
    var completion: URLError.Code? { state.withLock { $0.completion } }

    /// Returns once a task has completed (the delegate's event, not a poll).
    func waitForCompletion() async {
        await state.wait { $0.completion != nil }
    }

    func receivedBytes(for task: Int) -> Int { state.withLock { $0.bytes[task, default: 0] } }
}
