import Foundation
import TestTraits
import Testing
import WebPBridge

/// `--preset NAME --host HOST`: every dialect name but `template`.
@Suite(.timeLimit(.suiteBound)) struct RewritePresetTests {
    static let expectations: [(preset: String, output: String)] = [
        ("qiniu", "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1"),
        ("qiniu-legacy", "http://img.example.com/a.jpg-WebPiOSW750"),
        ("tencent-ci", "http://img.example.com/a.jpg?imageMogr2/thumbnail/750x/format/webp/ignore-error/1"),
        ("aliyun-oss", "http://img.example.com/a.jpg?x-oss-process=image/resize,w_750/format,webp"),
        ("huawei-obs", "http://img.example.com/a.jpg?x-image-process=image/resize,w_750/format,webp"),
        ("baidu-bos", "http://img.example.com/a.jpg?x-bce-process=image/resize,m_lfit,w_750/format,f_webp"),
        ("cloudinary", "http://img.example.com/a.jpg"),
        ("imgix", "http://img.example.com/a.jpg?w=750&fm=webp"),
        ("cloudflare", "http://img.example.com/cdn-cgi/image/width=750,format=webp,onerror=redirect/a.jpg"),
        ("thumbor", "http://img.example.com/unsafe/fit-in/750x0/filters:format(webp)/a.jpg"),
    ]

    @Test(arguments: expectations)
    func presetRewritesForItsHost(_ preset: String, _ output: String) throws {
        let configuration = try RewritePreset.configuration(named: preset, host: "img.example.com", width: 750)
        let rewriter = try Rewriter(configuration: configuration)
        let result = rewriter.rewrite(try #require(URL(string: "http://img.example.com/a.jpg")))
        #expect(result.url.absoluteString == output)
        #expect(result.ruleName == (result.isRewritten ? preset : preset))
        #expect(
            rewriter.rewrite(try #require(URL(string: "http://img.example.com.evil.example/a.jpg"))).isRewritten
                == false)
    }

    @Test func everyDialectButTemplateIsAPreset() {
        let names = Set(RewritePreset.all.map(\.name))
        for dialect in RewriteDialect.allNames where dialect != "template" {
            #expect(names.contains(dialect))
        }
    }

    @Test func unknownPresetsAndBadHostsAreErrors() {
        do {
            _ = try RewritePreset.configuration(named: "template", host: "img.example.com")
            Issue.record("expected an error")
        } catch {
            #expect(error.isUnknownPreset)
            #expect(error.description.hasPrefix("unknown preset 'template' (presets: qiniu, qiniu-legacy,"))
        }
        #expect(throws: RewriteConfigurationError.self) {
            try RewritePreset.configuration(named: "qiniu", host: "img.example.com/path")
        }
        #expect(throws: RewriteConfigurationError.self) {
            try RewritePreset.configuration(named: "qiniu-legacy", host: "img.example.com")
        }
    }

    @Test func onlyTheLegacyPresetReproducesTheLegacyApp() {
        #expect(RewritePreset.all.filter(\.reproducesLegacyApp).map(\.name) == ["qiniu-legacy"])
    }
}
