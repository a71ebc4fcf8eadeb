import Foundation
import TestTraits
import Testing
import WebPBridge

/// AVIF variants: each dialect whose CDN documents AVIF spells it its own
/// way (docs/rewrite.md cites each page); the others are refused when a
/// rule lists `avif`.
@Suite(.timeLimit(.suiteBound)) struct AVIFRewriteTests {
    static func avif(_ rule: RewriteRule) -> RewriteRule {
        var rule = rule
        rule.formats = [.avif, .webp]
        return rule
    }

    static let baidu = Rules.rule(.aliyunOSS(AliyunOSSOptions(parameter: .bceProcess)))

    /// Input → (WebP variant, AVIF variant), one row per documented spelling.
    static let examples: [(RewriteRule, String, String, String)] = [
        // developer.qiniu.com/dora/api/basic-processing-images-imageview2
        (
            Rules.qiniu, "http://img.example.com/a.jpg",
            "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1",
            "http://img.example.com/a.jpg?imageView2/2/w/750/format/avif/ignore-error/1"
        ),
        // cloud.tencent.com/document/product/436/44883
        (
            Rules.tencent, "https://img.example.com/a.png",
            "https://img.example.com/a.png?imageMogr2/thumbnail/750x/format/webp/ignore-error/1",
            "https://img.example.com/a.png?imageMogr2/thumbnail/750x/format/avif/ignore-error/1"
        ),
        // alibabacloud.com/help/en/oss/user-guide/advanced-compression-of-heif-or-avif-images
        (
            Rules.aliyun, "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?x-oss-process=image/resize,w_750/format,webp",
            "https://img.example.com/a.jpg?x-oss-process=image/resize,w_750/format,avif"
        ),
        // cloud.baidu.com/doc/BOS/s/dldh5wp4s
        (
            baidu, "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?x-bce-process=image/resize,m_lfit,w_750/format,f_webp",
            "https://img.example.com/a.jpg?x-bce-process=image/resize,m_lfit,w_750/format,f_avif"
        ),
        // cloudinary.com/documentation/image_format_support
        (
            Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/w_750,c_limit,f_webp/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/w_750,c_limit,f_avif/sample.jpg"
        ),
        // docs.imgix.com/apis/rendering/format/fm
        (
            Rules.imgix, "https://img.example.com/a.jpg?fm=png",
            "https://img.example.com/a.jpg?fm=webp",
            "https://img.example.com/a.jpg?fm=avif"
        ),
        // developers.cloudflare.com/images/transform-images/transform-via-url/
        (
            Rules.cloudflare, "https://img.example.com/uploads/a.jpg",
            "https://img.example.com/cdn-cgi/image/width=750,format=webp,onerror=redirect/uploads/a.jpg",
            "https://img.example.com/cdn-cgi/image/width=750,format=avif,onerror=redirect/uploads/a.jpg"
        ),
        // github.com/thumbor/thumbor/blob/7.7.1/docs/format.rst
        (
            Rules.thumbor, "http://img.example.com/a.jpg",
            "http://img.example.com/unsafe/fit-in/750x0/filters:format(webp)/a.jpg",
            "http://img.example.com/unsafe/fit-in/750x0/filters:format(avif)/a.jpg"
        ),
    ]

    @Test(arguments: examples.indices)
    func eachDocumentedDialectSpellsAVIF(_ index: Int) throws {
        let (rule, input, webP, avif) = Self.examples[index]
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Self.avif(rule)]))
        let url = try #require(URL(string: input))
        let result = rewriter.rewrite(url)
        // The WebP variant is what it was before AVIF existed.
        #expect(result.url.absoluteString == webP)
        #expect(result.variants.map(\.format) == [.avif, .webp])
        let chosen = rewriter.rewrite(url, to: .avif)
        #expect(chosen.isRewritten)
        #expect(chosen.url.absoluteString == avif)
        // Idempotent: the AVIF variant is recognised, never rewritten again.
        let again = rewriter.rewrite(chosen.url)
        #expect(again.reason.kind == .alreadyAVIF, "\(again.reason)")
        #expect(again.url == chosen.url)
        // The cache key is the URL fetched: AVIF and WebP never share an entry.
        #expect(chosen.cacheKey != result.cacheKey)
        #expect(again.cacheKey == chosen.cacheKey)
    }

    /// A page that already names the WebP variant (`--rewrite-html`) keeps
    /// it; its AVIF counterpart is offered beside it, never rewritten in.
    @Test(arguments: examples.indices)
    func aWebPVariantKeepsItselfAndOffersItsAVIFCounterpart(_ index: Int) throws {
        let (rule, _, webP, avif) = Self.examples[index]
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Self.avif(rule)]))
        let url = try #require(URL(string: webP))
        let result = rewriter.rewrite(url)
        #expect(result.reason.kind == .alreadyWebP)
        #expect(result.url == url)
        #expect(result.variants.map(\.url.absoluteString) == [avif, webP])
        #expect(rewriter.rewrite(url, to: .avif).url.absoluteString == avif)
        // Without avif in the rule, nothing is offered.
        let plain = try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
        #expect(plain.rewrite(url).variants.isEmpty)
    }

    @Test func theDefaultRuleMakesWebPOnly() throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniu]))
        let url = try #require(URL(string: "http://img.example.com/a.jpg"))
        #expect(rewriter.rewrite(url).variants.map(\.format) == [.webp])
        let avif = rewriter.rewrite(url, to: .avif)
        #expect(!avif.isRewritten)
        #expect(avif.url == url)
    }

    /// Huawei OBS lists JPG, PNG, BMP and WebP as targets; the legacy
    /// dialect and templates have no format to respell. A rule asking them
    /// for AVIF is refused.
    @Test(arguments: [
        Rules.rule(.aliyunOSS(AliyunOSSOptions(parameter: .imageProcess))), Rules.qiniuLegacy, Rules.template,
    ])
    func undocumentedDialectsRefuseAVIF(_ rule: RewriteRule) {
        #expect {
            try Rewriter(configuration: RewriteConfiguration(rules: [Self.avif(rule)]))
        } throws: { error in
            (error as? RewriteConfigurationError)?.field == "formats"
                && "\(error)".contains("does not document")
        }
    }

    @Test func formatsMustListWebPOnce() {
        var avifOnly = Rules.imgix
        avifOnly.formats = [.avif]
        var twice = Rules.imgix
        twice.formats = [.webp, .avif, .webp]
        for rule in [avifOnly, twice] {
            #expect(throws: RewriteConfigurationError.self) {
                try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
            }
        }
    }

    @Test func jsonReadsAndChecksFormats() throws {
        let good = #"{"rules":[{"dialect":"imgix","hosts":["img.example.com"],"formats":["avif","webp"]}]}"#
        let configuration = try RewriteConfiguration.decode(RewriteConfiguration.self, fromJSON: Data(good.utf8))
        #expect(configuration.rules[0].formats == [.avif, .webp])
        let bad = #"{"rules":[{"dialect":"imgix","hosts":["img.example.com"],"formats":["jxl"]}]}"#
        #expect {
            try RewriteConfiguration.decode(RewriteConfiguration.self, fromJSON: Data(bad.utf8))
        } throws: { error in
            (error as? RewriteConfigurationError)?.field == "formats" && "\(error)".contains("jxl")
        }
    }

    /// The rewriting properties, extended to AVIF: over generated URLs, an
    /// AVIF variant is only ever made on the rule's host (or the WebP
    /// variant's, for thumbor), is recognised as AVIF and never rewritten
    /// again, and keeps its own cache key.
    @Test(arguments: [
        Rules.qiniu, Rules.tencent, Rules.aliyun, baidu, Rules.cloudinary, Rules.imgix, Rules.cloudflare,
        Rules.thumbor,
    ])
    func avifVariantsHoldTheRewritingProperties(_ rule: RewriteRule) throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Self.avif(rule)]))
        var generator = SeededGenerator(seed: UInt64(rule.dialect.name.utf8.count) &* 104_729)
        var made = 0
        for _ in 0..<400 {
            let pathBase = rule.dialect == .cloudinary ? "/demo/image/upload" : ""
            let input = URLGenerator.url(around: rule.hosts[0], pathBase: pathBase, using: &generator)
            guard let url = URL(string: input) else { continue }
            let webP = rewriter.rewrite(url)
            let avif = rewriter.rewrite(url, to: .avif)
            guard avif.isRewritten else {
                #expect(avif.url.absoluteString == url.absoluteString, "\(input)")
                continue
            }
            made += 1
            #expect(webP.isRewritten || webP.reason.kind == .alreadyWebP, "\(input)")
            #expect(
                avif.url.host?.lowercased() == webP.url.host?.lowercased(), "foreign host: \(input) → \(avif.url)")
            let host = url.host?.lowercased() ?? ""
            #expect(host == rule.hosts[0] || host == rule.hosts[0] + ".", "rewrote a foreign host: \(input)")
            let again = rewriter.rewrite(avif.url)
            #expect(again.reason.kind == .alreadyAVIF, "\(input) → \(avif.url): \(again.reason)")
            #expect(again.url.absoluteString == avif.url.absoluteString)
            #expect(avif.cacheKey != webP.cacheKey, "\(input)")
            // The WebP variant of the AVIF variant is not made: a page that
            // names AVIF keeps it.
            #expect(rewriter.rewrite(avif.url, to: .webp).url == avif.url)
        }
        #expect(made > 20, "only \(made) AVIF variants made")
    }
}
