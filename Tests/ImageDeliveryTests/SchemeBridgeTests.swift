import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge
import WebViewBridge

/// What the web view's scheme bridge refuses before anything reaches the
/// network (the image behaviours are rows of ``DeliveryTableTests``).
@Suite(.timeLimit(.suiteBound))
struct SchemeBridgeTests {
    /// A loader that records every request, so a refusal is shown to fetch nothing.
    static func recordingLoader() -> ScriptedDataLoader {
        ScriptedDataLoader(answering: .ok(Data("ok".utf8), fields: ["content-type": "text/plain"]))
    }

    static func bridge(_ loader: ScriptedDataLoader) throws -> WebViewSchemeBridge {
        let preset = try RewritePreset.configuration(named: "qiniu", host: "img.example.com", width: 640)
        let pipeline = ImagePipeline(
            configuration: .init(rewriter: try Rewriter(configuration: preset), dataLoader: loader, memoryCache: nil))
        return WebViewSchemeBridge(imageBridge: ImageBridge(pipeline: pipeline))
    }

    @Test(arguments: [
        ("POST", "webp-bridge-https://img.example.com/a.jpg", 405),
        ("GET", "https://img.example.com/a.jpg", 400),
        ("GET", "other-https://img.example.com/a.jpg", 400),
        ("GET", "webp-bridge-ftp://img.example.com/a.jpg", 400),
        ("GET", "webp-bridge-https://user:secret@img.example.com/a.jpg", 400),
        ("GET", "webp-bridge-https://evil.example.net/a.jpg", 403),
        ("GET", "webp-bridge-https://img.example.com.evil.net/a.jpg", 403),
        ("GET", "webp-bridge-http://169.254.169.254/latest/meta-data", 403),
    ])
    func refusesWithoutFetching(method: String, url: String, status: Int) async throws {
        let loader = Self.recordingLoader()
        let bridge = try Self.bridge(loader)
        let answer = await bridge.respond(to: SchemeRequest(method: method, url: try #require(URL(string: url))))
        guard case .response(let response) = answer else {
            Issue.record("\(url): \(answer)")
            return
        }
        #expect(response.statusCode == status)
        #expect(response.fields["Content-Type"] == "text/plain; charset=utf-8")
        #expect(loader.requests.isEmpty, "nothing fetched for a refused request")
    }

    /// A URL on a host the rules name but that no rule rewrites (not an
    /// image) is fetched as it is, with its own answer relayed.
    @Test func anUnrewrittenURLOnANamedHostIsFetchedAsItIs() async throws {
        let loader = Self.recordingLoader()
        let bridge = try Self.bridge(loader)
        let url = try #require(URL(string: "webp-bridge-https://img.example.com/styles/site.css"))
        guard case .response(let response) = await bridge.respond(to: SchemeRequest(url: url)) else {
            Issue.record("no response")
            return
        }
        #expect(response.statusCode == 200)
        #expect(response.body == Data("ok".utf8))
        #expect(response.fields["Content-Length"] == "2")
        #expect(loader.requests.map(\.url) == [URL(string: "https://img.example.com/styles/site.css")!])
    }

    /// The web view's request reaches the upstream with its end-to-end
    /// fields, as through the other bridges — but not the hop-by-hop ones,
    /// nor `Origin`, `Referer` (they name the custom scheme) and `Cookie`
    /// (WebKit keeps it per custom scheme, not per network host).
    @Test func theRequestsEndToEndFieldsAreForwarded() async throws {
        let loader = Self.recordingLoader()
        let bridge = try Self.bridge(loader)
        let url = try #require(URL(string: "webp-bridge-https://img.example.com/styles/site.css"))
        let fields: HTTPFieldList = [
            "Accept": "text/css,*/*;q=0.1", "User-Agent": "WebView/1", "Accept-Language": "fr",
            "X-Requested-With": "app", "Connection": "X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
            "Origin": "webp-bridge-https://img.example.com", "Referer": "webp-bridge-https://img.example.com/page",
            "Cookie": "session=1",
        ]
        guard case .response(let response) = await bridge.respond(to: SchemeRequest(url: url, fields: fields)) else {
            Issue.record("no response")
            return
        }
        #expect(response.statusCode == 200)
        let sent = try #require(loader.requests.first?.headers)
        #expect(sent["Accept"] == "text/css,*/*;q=0.1")
        #expect(sent["User-Agent"] == "WebView/1")
        #expect(sent["Accept-Language"] == "fr")
        #expect(sent["X-Requested-With"] == "app")
        for name in ["Connection", "X-Hop", "Keep-Alive", "Origin", "Referer", "Cookie"] {
            #expect(sent[name] == nil, "\(name) is not forwarded")
        }
    }
}
