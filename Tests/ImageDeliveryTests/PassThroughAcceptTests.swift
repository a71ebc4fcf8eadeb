import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A request the bridge passes through, on a host its rules name, from a
/// client it transcodes for: the upstream is asked with WebP and AVIF
/// refused, so a negotiating origin (`--auto-format`) cannot answer a GIF
/// or a JPEG the rule leaves alone in a format the client cannot show.
/// Decided once in the core (``ImageBridge/route(_:)``); the proxy and the
/// web view's scheme bridge apply it.
@Suite(.timeLimit(.suiteBound))
struct PassThroughAcceptTests {
    static let host = "img.example.com"
    /// Chromium's own `Accept`, as the e2e harness's "iOS WebView" sends it.
    static let chromiumAccept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    static func bridge(_ policy: ClientPolicy) throws -> ImageBridge {
        let preset = try RewritePreset.configuration(named: "qiniu", host: host, width: 640, formats: [.avif, .webp])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: preset), dataLoader: DataLoaders.platformDefault,
                memoryCache: nil))
        return try ImageBridge(configuration: .init(pipeline: pipeline, clientPolicy: policy))
    }

    static func route(
        _ bridge: ImageBridge, _ url: String, _ profile: ClientProfile, accept: String = chromiumAccept,
        cacheControl: [String] = []
    ) throws -> DeliveryRoute {
        bridge.route(
            DeliveryRequest(
                url: try #require(URL(string: url)), accept: accept, userAgent: profile.userAgent,
                cacheControl: cacheControl))
    }

    static let refused = "image/apng, image/svg+xml, image/*, */*;q=0.8, image/avif;q=0, image/webp;q=0"

    @Test(arguments: [
        "http://img.example.com/live.gif",  // a GIF the rule does not convert
        "http://img.example.com/notes.txt",  // not an image the rule names
    ])
    func aTranscodedClientIsNotOfferedVariantFormatsUpstream(url: String) throws {
        let route = try Self.route(Self.bridge(.legacy), url, .iOSWebView)
        #expect(route == .passThrough(vary: nil, upstreamAccept: Self.refused))
    }

    @Test func noTransformKeepsTheRefusal() throws {
        let route = try Self.route(
            Self.bridge(.legacy), "http://img.example.com/photo.jpg", .iOSWebView, cacheControl: ["no-transform"])
        guard case .passThrough(_, let accept) = route else {
            Issue.record("\(route)")
            return
        }
        #expect(accept == Self.refused)
    }

    @Test func clientsThatShowTheFormatsOrThatThePolicyLeavesAloneAreNotTouched() throws {
        // A client that names what it shows, under the Accept policy: its own Accept goes as sent.
        #expect(
            try Self.route(Self.bridge(.standard), "http://img.example.com/live.gif", .chrome)
                == .passThrough(vary: nil, upstreamAccept: nil))
        // A client the legacy policy does not claim (not AppleWebKit).
        #expect(
            try Self.route(Self.bridge(.legacy), "http://img.example.com/live.gif", .curl)
                == .passThrough(vary: nil, upstreamAccept: nil))
        // A client the policy transcodes for whose Accept names no variant format (a real iOS 13
        // WebView's, a stylesheet's): nothing a negotiation could pick, so nothing to refuse.
        for accept in [ClientProfile.webKitImageAccept, "text/css,*/*;q=0.1"] {
            #expect(
                try Self.route(Self.bridge(.legacy), "http://img.example.com/live.gif", .iOSWebView, accept: accept)
                    == .passThrough(vary: nil, upstreamAccept: nil))
        }
        // A host no rule names: not the bridge's business.
        #expect(
            try Self.route(Self.bridge(.legacy), "http://other.example.com/live.gif", .iOSWebView)
                == .passThrough(vary: nil, upstreamAccept: nil))
    }

    @Test(arguments: [
        (nil as String?, "*/*, image/webp;q=0, image/avif;q=0"),
        ("image/webp;q=0.9, image/png", "image/png, image/webp;q=0, image/avif;q=0"),
        ("IMAGE/AVIF, text/html", "text/html, image/webp;q=0, image/avif;q=0"),
    ])
    func refusingKeepsEveryOtherRange(accept: String?, expected: String) {
        #expect(AcceptHeader.refusing(["image/webp", "image/avif"], in: accept) == expected)
    }
}
