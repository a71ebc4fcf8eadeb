import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Who gets WebP, who gets a transcoded variant, who is passed through.
@Suite(.timeLimit(.suiteBound)) struct ClientPolicyTests {
    static let rewriter = try! Rewriter(
        configuration: RewriteConfiguration(rules: [
            RewriteRule(name: "qiniu", hosts: ["img.example.com"], dialect: .qiniu(QiniuOptions()), width: 750)
        ]))
    static let image = URL(string: "http://img.example.com/a.jpg")!
    static let variant = URL(string: "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1")!
    static let safari = ClientProfile.macSafari.userAgent

    static let acceptCases: [(accept: String?, decodesWebP: Bool)] = [
        ("image/webp,*/*", true),
        (ClientProfile.chrome.imageAccept, true),
        ("image/webp;q=0.5", true),
        ("IMAGE/WEBP", true),
        (" text/html , image/webp ; q=1.0", true),
        ("image/webp;q=0", false),
        ("image/webp;q=0.0", false),
        ("image/webp;q=abc", false),
        ("image/*", false),
        ("*/*", false),
        (ClientProfile.macSafari.imageAccept, false),
        ("image/webpx", false),
        ("", false),
        (nil, false),
    ]

    @Test(arguments: acceptCases)
    func webPSupportMeansAnExplicitImageWebPWithPositiveQuality(_ accept: String?, _ decodesWebP: Bool) {
        let decision = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.image, accept: accept), using: Self.rewriter)
        #expect(decision == (decodesWebP ? .serveVariant(Self.variant, .webp) : .transcode(Self.variant)))
    }

    @Test func otherClientsCanBePassedThroughInsteadOfTranscoded() {
        let policy = ClientPolicy(transcodesForOtherClients: false)
        let decision = policy.decision(for: ClientRequest(url: Self.image, accept: "image/*"), using: Self.rewriter)
        #expect(decision == .passThrough(reason: "client does not accept image/webp"))
    }

    @Test func unmatchedURLsPassThrough() throws {
        let url = try #require(URL(string: "http://other.example.com/a.jpg"))
        let decision = ClientPolicy.standard.decision(
            for: ClientRequest(url: url, accept: "image/webp"), using: Self.rewriter)
        #expect(decision == .passThrough(reason: "not rewritten"))
        #expect(decision.fetchURL(original: url) == url)
    }

    @Test func alreadyWebPURLsAreServedOrTranscoded() {
        let webP = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.variant, accept: "image/webp"), using: Self.rewriter)
        #expect(webP == .serveVariant(Self.variant, .webp))
        let other = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.variant, accept: "*/*"), using: Self.rewriter)
        #expect(other == .transcode(Self.variant))
    }

    @Test func legacyPolicyTranscodesForAppleWebKitAndExcludesTablets() {
        let policy = ClientPolicy.legacy
        let webView = policy.decision(
            for: ClientRequest(url: Self.image, userAgent: Self.safari, accept: "image/*", deviceClass: .phone),
            using: Self.rewriter)
        #expect(webView == .transcode(Self.variant))
        // The original app's rule to the letter: the User-Agent decides, not Accept.
        let listsWebP = policy.decision(
            for: ClientRequest(url: Self.image, userAgent: Self.safari, accept: "image/webp,*/*"), using: Self.rewriter)
        #expect(listsWebP == .transcode(Self.variant))
        let native = policy.decision(
            for: ClientRequest(url: Self.image, userAgent: ClientProfile.nativeApp.userAgent), using: Self.rewriter)
        #expect(native == .passThrough(reason: "User-Agent is not AppleWebKit"))
        let iPad = policy.decision(
            for: ClientRequest(url: Self.image, userAgent: Self.safari, deviceClass: .tablet), using: Self.rewriter)
        #expect(iPad == .passThrough(reason: "device class 'tablet' is excluded"))
    }

    @Test func excludedDeviceClassesApplyToTheStandardPolicyToo() {
        let policy = ClientPolicy(excludedDeviceClasses: [DeviceClass(rawValue: "TV")])
        let decision = policy.decision(
            for: ClientRequest(url: Self.image, accept: "image/webp", deviceClass: DeviceClass(rawValue: "tv")),
            using: Self.rewriter)
        #expect(decision == .passThrough(reason: "device class 'tv' is excluded"))
    }
}

/// The policy's own part of a configuration file and of a preset.
@Suite(.timeLimit(.suiteBound)) struct ClientPolicyConfigurationTests {
    @Test func readsTheClientSectionOfAConfigurationFile() throws {
        let json = """
            { "rules": [ { "hosts": ["img.example.com"], "dialect": "qiniu" } ],
              "client": { "webpSupport": "apple-webkit", "excludedDeviceClasses": ["tablet"] } }
            """
        #expect(try ClientPolicy(configurationJSON: Data(json.utf8)) == .legacy)
        #expect(try ClientPolicy(configurationJSON: Data(#"{"rules": []}"#.utf8)) == .standard)
    }

    @Test func refusesAnInvalidClientSectionNamingTheField() {
        let json = #"{"rules": [], "client": {"webpSupport": "sometimes"}}"#
        let error = #expect(throws: RewriteConfigurationError.self) {
            try ClientPolicy(configurationJSON: Data(json.utf8))
        }
        #expect(error?.field == "client.webpSupport")
        #expect(error?.description.contains("unknown value 'sometimes'") == true)
        #expect(throws: RewriteConfigurationError.self) { try ClientPolicy(configurationJSON: Data("[1".utf8)) }
    }

    @Test func roundTripsThroughJSON() throws {
        let policy = ClientPolicy(transcodesForOtherClients: false, excludedDeviceClasses: [.tablet, .desktop])
        let file = #"{"client": "# + String(decoding: try JSONEncoder().encode(policy), as: UTF8.self) + "}"
        #expect(try ClientPolicy(configurationJSON: Data(file.utf8)) == policy)
    }

    @Test func theLegacyPresetImpliesTheLegacyPolicy() throws {
        #expect(ClientPolicy(preset: try #require(RewritePreset.named("qiniu-legacy"))) == .legacy)
        #expect(ClientPolicy(preset: try #require(RewritePreset.named("qiniu"))) == .standard)
    }

    @Test func varyNamesUserAgentOnlyWhenThePolicyReadsIt() {
        #expect(ClientPolicy.standard.varyFields == "Accept")
        #expect(ClientPolicy.legacy.varyFields == "Accept, User-Agent")
        #expect(ClientPolicy(excludedDeviceClasses: [.tablet]).varyFields == "Accept, User-Agent")
        #expect(DeviceClass.guessed(fromUserAgent: DeliveryTableTests.iPad) == .tablet)
        #expect(DeviceClass.guessed(fromUserAgent: "curl/8") == nil)
    }
}

/// Which page requests may get a page naming the variants (the proxy's
/// `--rewrite-html`): the clients whose images the policy serves variants to.
@Suite(.timeLimit(.suiteBound)) struct PageRewritingDecisionTests {
    static let pageAccept = ClientProfile.linuxWebKit.pageAccept
    static let chromePageAccept = ClientProfile.chrome.pageAccept
    static let webKit = ClientProfile.linuxWebKit.userAgent
    static let chrome = ClientProfile.chrome.userAgent
    static let iPad = ClientProfile.iPadWebView.userAgent
    static let page = URL(string: "http://site.example.com/index.html")!

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var policy: ClientPolicy
        var method = "GET"
        var userAgent: String?
        var accept: String?
        var cacheControl: [String] = []
        var rewrites: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "accept policy: WebKit's page Accept lists no WebP, its images are transcoded or served",
            policy: .standard, userAgent: webKit, accept: pageAccept, rewrites: true),
        Row(
            name: "accept policy without transcodes: a page Accept without WebP keeps the originals",
            policy: ClientPolicy(transcodesForOtherClients: false), userAgent: webKit, accept: pageAccept,
            rewrites: false),
        Row(
            name: "accept policy without transcodes: Chrome's page Accept lists WebP",
            policy: ClientPolicy(transcodesForOtherClients: false), userAgent: chrome, accept: chromePageAccept,
            rewrites: true),
        Row(
            name: "legacy policy: an AppleWebKit client's images are transcoded", policy: .legacy,
            userAgent: webKit, accept: pageAccept, rewrites: true),
        Row(
            name: "legacy policy: any other client keeps the originals", policy: .legacy,
            userAgent: ClientProfile.curl.userAgent, accept: "*/*", rewrites: false),
        Row(
            name: "legacy policy: an excluded tablet keeps the originals", policy: .legacy, userAgent: iPad,
            accept: pageAccept, rewrites: false),
        Row(
            name: "no-transform from the client keeps the page as it is", policy: .standard, userAgent: webKit,
            accept: pageAccept, cacheControl: ["no-cache, no-transform"], rewrites: false),
        Row(
            name: "only GET and HEAD pages are rewritten", policy: .standard, method: "POST", userAgent: webKit,
            accept: pageAccept, rewrites: false),
    ]

    @Test(arguments: rows)
    func decides(_ row: Row) throws {
        let loader = ScriptedDataLoader()
        let pipeline = ImagePipeline(
            configuration: .init(rewriter: ClientPolicyTests.rewriter, dataLoader: loader, memoryCache: nil))
        let bridge = ImageBridge(pipeline: pipeline, clientPolicy: row.policy)
        let request = DeliveryRequest(
            method: row.method, url: Self.page, accept: row.accept, userAgent: row.userAgent,
            cacheControl: row.cacheControl)
        #expect(bridge.rewritesPage(request) == row.rewrites)
        #expect(loader.requests.isEmpty, "deciding about a page fetches nothing")
    }
}
