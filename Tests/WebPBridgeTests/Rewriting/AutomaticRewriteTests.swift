import Foundation
import TestTraits
import Testing
import WebPBridge

/// Rules that leave the quality, the format or the width to a CDN that
/// documents it (Cloudinary, imgix, Cloudflare, Baidu BOS), refused at load
/// for the others; and GIFs only where the CDN documents animated WebP.
@Suite(.timeLimit(.suiteBound)) struct AutomaticRewriteTests {
    static func rule(
        _ dialect: RewriteDialect, host: String = Rules.host, width: Int? = 750, quality: Int? = nil,
        automaticQuality: AutomaticQuality? = nil, automaticFormat: Bool = false, widthFromClient: Bool = false,
        gif: Bool = false, formats: [VariantFormat] = [.webp]
    ) -> RewriteRule {
        RewriteRule(
            name: dialect.name, hosts: [host], dialect: dialect, width: width, quality: quality, convertsGIF: gif,
            formats: formats, automaticQuality: automaticQuality, automaticFormat: automaticFormat,
            widthFromClient: widthFromClient)
    }

    static let cloudinaryHost = "res.cloudinary.com"
    static let baidu = RewriteDialect.aliyunOSS(AliyunOSSOptions(parameter: .bceProcess))

    static let examples: [RewriteExample] = [
        .rewrites(
            rule(.cloudinary, host: cloudinaryHost, automaticQuality: .standard, automaticFormat: true),
            "https://res.cloudinary.com/demo/image/upload/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/w_750,c_limit,f_auto,q_auto/sample.jpg"),
        .rewrites(
            rule(.cloudinary, host: cloudinaryHost, automaticQuality: .eco, widthFromClient: true),
            "https://res.cloudinary.com/demo/image/upload/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/w_auto:100:750,dpr_auto,c_limit,f_webp,q_auto:eco/sample.jpg"
        ),
        .rewrites(
            rule(.cloudinary, host: cloudinaryHost, width: nil, widthFromClient: true),
            "https://res.cloudinary.com/demo/image/upload/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/w_auto,dpr_auto,c_limit,f_webp/sample.jpg"),
        // A GIF's WebP is animated only with fl_awebp.
        .rewrites(
            rule(.cloudinary, host: cloudinaryHost, gif: true),
            "https://res.cloudinary.com/demo/image/upload/kitten.gif",
            "https://res.cloudinary.com/demo/image/upload/w_750,c_limit,f_webp,fl_awebp/kitten.gif"),
        .rewrites(
            rule(.cloudinary, host: cloudinaryHost, gif: true),
            "https://res.cloudinary.com/demo/image/upload/w_300/kitten.gif",
            "https://res.cloudinary.com/demo/image/upload/w_300,f_webp,fl_awebp/kitten.gif"),
        .rewrites(
            rule(.cloudinary, host: cloudinaryHost, automaticFormat: true, gif: true),
            "https://res.cloudinary.com/demo/image/upload/kitten.gif",
            "https://res.cloudinary.com/demo/image/upload/w_750,c_limit,f_auto/kitten.gif"),
        .rewrites(
            rule(.imgix, automaticQuality: .standard, automaticFormat: true),
            "https://img.example.com/a.jpg", "https://img.example.com/a.jpg?w=750&auto=compress,format"),
        .rewrites(
            rule(.imgix, widthFromClient: true), "https://img.example.com/a.jpg?fm=png",
            "https://img.example.com/a.jpg?fm=webp"),
        .rewrites(
            rule(.imgix, widthFromClient: true), "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?w=750&ch=Width,DPR&fm=webp"),
        .rewrites(
            rule(.imgix, automaticFormat: true), "https://img.example.com/a.jpg?fm=png&h=300",
            "https://img.example.com/a.jpg?h=300&w=750&auto=format"),
        .rewrites(
            rule(.cloudflare, width: nil, automaticFormat: true, widthFromClient: true),
            "https://img.example.com/uploads/a.jpg",
            "https://img.example.com/cdn-cgi/image/width=auto,format=auto,onerror=redirect/uploads/a.jpg"),
        .rewrites(
            rule(.cloudflare, gif: true), "https://img.example.com/uploads/a.gif",
            "https://img.example.com/cdn-cgi/image/width=750,format=webp,onerror=redirect/uploads/a.gif"),
        .rewrites(
            rule(baidu, automaticFormat: true), "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?x-bce-process=image/resize,m_lfit,w_750/format,f_auto"),
    ]

    @Test(arguments: examples)
    func rewrites(_ example: RewriteExample) throws {
        try example.check()
    }

    /// What each dialect's CDN does not document, refused at load naming the field.
    static let refusals: [(rule: RewriteRule, field: String, mentions: String)] = [
        (rule(.qiniu(QiniuOptions()), automaticQuality: .standard), "quality", "no automatic quality"),
        (rule(.imgix, automaticQuality: .eco, automaticFormat: true), "quality", "only auto"),
        (rule(.imgix, automaticQuality: .standard), "quality", "needs \"formats\": \"auto\""),
        (rule(.cloudflare, automaticQuality: .standard), "quality", "no automatic quality"),
        (rule(.cloudinary, quality: 80, automaticQuality: .standard), "quality", "not both"),
        (rule(.thumbor(ThumborOptions()), automaticFormat: true), "formats", "no format chosen by Accept"),
        (rule(.aliyunOSS(AliyunOSSOptions()), automaticFormat: true), "formats", "no format chosen by Accept"),
        (rule(.cloudinary, automaticFormat: true, formats: [.avif, .webp]), "formats", "cannot be listed"),
        (rule(.tencentCI(TencentCIOptions()), widthFromClient: true), "width", "no width from client hints"),
        (rule(.cloudflare, widthFromClient: true), "width", "no fallback width"),
        (rule(.aliyunOSS(AliyunOSSOptions()), gif: true), "gif", "animated WebP"),
        (rule(baidu, gif: true), "gif", "animated WebP"),
        (rule(.imgix, gif: true), "gif", "animated WebP"),
        (rule(.thumbor(ThumborOptions()), gif: true), "gif", "animated WebP"),
        (rule(.qiniuLegacy, host: "img.host.com", gif: true), "gif", "animated WebP"),
    ]

    @Test func undocumentedRequestsAreRefusedAtLoadNamingTheField() {
        for (rule, field, mentions) in Self.refusals {
            do {
                try RewriteConfiguration(rules: [rule]).validate()
                Issue.record("\(rule.dialect.name) accepted what its CDN does not document (\(field))")
            } catch {
                #expect(error.field == field, "\(rule.dialect.name): \(error)")
                #expect(error.description.contains(mentions), "\(rule.dialect.name): \(error)")
            }
        }
    }

    @Test func gifRulesAreAcceptedWhereTheCDNDocumentsAnimatedWebP() throws {
        for dialect in [
            RewriteDialect.qiniu(QiniuOptions()), .tencentCI(TencentCIOptions()), .cloudinary, .cloudflare,
            .template("{scheme}://{host}{path}?fm=webp"),
        ] {
            try RewriteConfiguration(rules: [Self.rule(dialect, gif: true)]).validate()
        }
    }

    /// No CDN here documents an animated AVIF from a GIF: a GIF gets only
    /// its WebP variant, which an AVIF client shows as well.
    @Test func aGIFGetsNoAVIFVariant() throws {
        let rewriter = try Rewriter(
            configuration: RewriteConfiguration(rules: [
                Self.rule(.qiniu(QiniuOptions()), gif: true, formats: [.avif, .webp])
            ]))
        let gif = rewriter.rewrite(try #require(URL(string: "http://img.example.com/scene.gif")))
        #expect(gif.isRewritten)
        #expect(gif.variants.map(\.format) == [.webp])
        #expect(
            rewriter.rewrite(try #require(URL(string: "http://img.example.com/scene.gif")), to: .avif).url
                .absoluteString == "http://img.example.com/scene.gif")
        let jpeg = rewriter.rewrite(try #require(URL(string: "http://img.example.com/a.jpg")))
        #expect(jpeg.variants.map(\.format) == [.avif, .webp])
    }

    @Test func jsonSpellsAutoAndRoundTrips() throws {
        let json = """
            { "rules": [
              { "name": "c", "hosts": ["res.cloudinary.com"], "dialect": "cloudinary",
                "width": "auto:750", "quality": "auto:eco", "formats": "auto", "gif": true },
              { "name": "i", "hosts": ["img.example.com"], "dialect": "imgix",
                "width": "auto", "quality": "auto", "formats": "auto" }
            ] }
            """
        let configuration = try RewriteConfiguration(json: Data(json.utf8))
        let cloudinary = configuration.rules[0]
        #expect(cloudinary.width == 750 && cloudinary.widthFromClient)
        #expect(cloudinary.quality == nil && cloudinary.automaticQuality == .eco)
        #expect(cloudinary.automaticFormat && cloudinary.formats == [.webp] && cloudinary.convertsGIF)
        let imgix = configuration.rules[1]
        #expect(imgix.width == nil && imgix.widthFromClient && imgix.automaticQuality == .standard)
        let encoded = try JSONEncoder().encode(configuration)
        #expect(try RewriteConfiguration(json: encoded) == configuration)
    }

    @Test func badAutoSpellingsAreErrors() {
        let cases: [(String, String)] = [
            (#""quality": "auto:meh""#, "quality"), (#""width": "auto:wide""#, "width"),
            (#""formats": "best""#, "formats"), (#""width": "750""#, "width"),
        ]
        for (field, name) in cases {
            let json = #"{"rules": [{"hosts": ["res.cloudinary.com"], "dialect": "cloudinary", "# + field + "}]}"
            do {
                _ = try RewriteConfiguration(json: Data(json.utf8))
                Issue.record("accepted \(field)")
            } catch {
                #expect(error.field == name, "\(field): \(error)")
            }
        }
    }

    @Test func overridesSwapFixedAndAutomaticSettings() throws {
        let fixed = RewriteConfiguration(rules: [Self.rule(.cloudinary, host: Self.cloudinaryHost, quality: 80)])
        let automatic = fixed.overriding(
            RewriteOverrides(width: 640, widthFromClient: true, automaticQuality: .good, automaticFormat: true))
        let rule = try #require(automatic.rules.first)
        #expect(rule.quality == nil && rule.automaticQuality == .good)
        #expect(rule.width == 640 && rule.widthFromClient && rule.automaticFormat)
        try automatic.validate()
        let back = automatic.overriding(RewriteOverrides(quality: 70, formats: [.webp]))
        #expect(back.rules[0].quality == 70 && back.rules[0].automaticQuality == nil && !back.rules[0].automaticFormat)
        let preset = try RewritePreset.configuration(
            named: "imgix", host: "img.example.com",
            RewriteOverrides(width: 750, automaticQuality: .standard, automaticFormat: true))
        let result = try Rewriter(configuration: preset).rewrite(
            try #require(URL(string: "https://img.example.com/a.jpg")))
        #expect(result.url.absoluteString == "https://img.example.com/a.jpg?w=750&auto=compress,format")
    }
}
