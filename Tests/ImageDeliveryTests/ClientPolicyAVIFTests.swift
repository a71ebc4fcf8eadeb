import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The first of the rule's formats the client names: AVIF only for an
/// explicit `image/avif` with q > 0; device classes and the legacy rule as before.
@Suite(.timeLimit(.suiteBound)) struct ClientPolicyAVIFTests {
    static let rewriter = try! Rewriter(
        configuration: RewriteConfiguration(rules: [
            RewriteRule(
                name: "qiniu", hosts: ["img.example.com"], dialect: .qiniu(QiniuOptions()), width: 750,
                formats: [.avif, .webp])
        ]))
    static let image = URL(string: "http://img.example.com/a.jpg")!
    static let webP = URL(string: "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1")!
    static let avif = URL(string: "http://img.example.com/a.jpg?imageView2/2/w/750/format/avif/ignore-error/1")!

    static let acceptCases: [(accept: String?, format: VariantFormat?)] = [
        (ClientProfile.chrome.imageAccept, .avif),
        ("image/webp,image/avif", .avif),  // a tie: the rule's order, not the client's listing
        ("image/webp;q=0.5,image/avif;q=0.5", .avif),
        // The highest q (the one negotiation, the origin's too); the rule's order alone gave AVIF before.
        ("image/avif;q=0.1,image/webp", .webp),
        ("image/webp;q=0.9,image/avif;q=0.8", .webp),
        ("image/avif", .avif),
        ("image/avif;q=0,image/webp", .webp),
        ("image/avif;q=x,image/webp", .webp),
        ("image/webp,*/*", .webp),
        ("image/avifx,image/webp", .webp),
        ("image/*", nil),
        ("*/*", nil),
        (nil, nil),
    ]

    @Test(arguments: acceptCases)
    func theFormatTheClientPrefersIsServed(_ accept: String?, _ format: VariantFormat?) {
        let decision = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.image, accept: accept), using: Self.rewriter)
        switch format {
        case .avif: #expect(decision == .serveVariant(Self.avif, .avif))
        case .webp: #expect(decision == .serveVariant(Self.webP, .webp))
        case nil: #expect(decision == .transcode(Self.webP))
        }
    }

    @Test func withoutAVIFTheSameClientFallsBackToWebPOrTheTranscode() {
        let rewrite = Self.rewriter.rewrite(Self.image)
        let both = ClientRequest(url: Self.image, accept: "image/avif,image/webp")
        #expect(
            ClientPolicy.standard.decision(for: both, rewrite: rewrite, excluding: [.avif])
                == .serveVariant(Self.webP, .webp))
        let avifOnly = ClientRequest(url: Self.image, accept: "image/avif")
        #expect(
            ClientPolicy.standard.decision(for: avifOnly, rewrite: rewrite, excluding: [.avif]) == .transcode(Self.webP)
        )
    }

    /// The cache key is the URL fetched, so the two variants never share an entry.
    @Test func avifAndWebPClientsFetchDifferentURLs() {
        let avif = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.image, accept: "image/avif,image/webp"), using: Self.rewriter)
        let webP = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.image, accept: "image/webp"), using: Self.rewriter)
        let avifKey = Rewriter.normalizedCacheKey(for: avif.fetchURL(original: Self.image))
        let webPKey = Rewriter.normalizedCacheKey(for: webP.fetchURL(original: Self.image))
        #expect(avifKey != webPKey)
        #expect(Self.rewriter.cacheKey(for: Self.avif) == avifKey)
        #expect(Self.rewriter.cacheKey(for: Self.image) == webPKey)
    }

    @Test func theLegacyWebViewPolicyIsUnchanged() {
        let webView = ClientProfile.iOSWebView.userAgent
        let decision = ClientPolicy.legacy.decision(
            for: ClientRequest(url: Self.image, userAgent: webView, accept: "image/avif,image/webp"),
            using: Self.rewriter)
        #expect(decision == .transcode(Self.webP))
        let tablet = ClientPolicy.legacy.decision(
            for: ClientRequest(url: Self.image, userAgent: webView, accept: "image/avif", deviceClass: .tablet),
            using: Self.rewriter)
        #expect(tablet == .passThrough(reason: "device class 'tablet' is excluded"))
    }

    /// Pages rewritten to name the WebP variants still give AVIF clients AVIF.
    @Test func aURLThatAlreadyNamesTheWebPVariantGivesAVIFClientsTheAVIFOne() {
        let avif = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.webP, accept: "image/avif,image/webp"), using: Self.rewriter)
        #expect(avif == .serveVariant(Self.avif, .avif))
        let webP = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.webP, accept: "image/webp"), using: Self.rewriter)
        #expect(webP == .serveVariant(Self.webP, .webp))
        let other = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.webP, accept: "image/*"), using: Self.rewriter)
        #expect(other == .transcode(Self.webP))
    }

    /// Handed over only to a client that shows AVIF; the others are served
    /// as for the WebP variant (issue 26, finding 12: they once got AVIF).
    @Test func aURLThatAlreadyAsksForAVIFIsHandedOverOnlyToAVIFClients() {
        let avif = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.avif, accept: "image/avif,image/webp"), using: Self.rewriter)
        #expect(avif == .passThrough(reason: "already AVIF"))
        let webP = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.avif, accept: "image/webp"), using: Self.rewriter)
        #expect(webP == .serveVariant(Self.webP, .webp))
        let other = ClientPolicy.standard.decision(
            for: ClientRequest(url: Self.avif, accept: "image/*"), using: Self.rewriter)
        #expect(other == .transcode(Self.webP))
        let none = ClientPolicy.standard.decision(for: ClientRequest(url: Self.avif), using: Self.rewriter)
        #expect(none == .transcode(Self.webP))
    }

    @Test func pagesNameTheWebPVariantsOnlyForClientsThatCanUseThem() {
        let strict = ClientPolicy(transcodesForOtherClients: false)
        #expect(!strict.servesVariants(to: ClientRequest(url: Self.image, accept: "image/avif")))
        #expect(strict.servesVariants(to: ClientRequest(url: Self.image, accept: "image/avif,image/webp")))
        #expect(ClientPolicy.standard.servesVariants(to: ClientRequest(url: Self.image, accept: "image/avif")))
        #expect(ClientPolicy.standard.varyFields == "Accept")
    }
}
