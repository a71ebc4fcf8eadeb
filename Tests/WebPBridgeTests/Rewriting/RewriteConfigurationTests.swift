import Foundation
import TestTraits
import Testing
import WebPBridge

/// JSON configuration: decoding, validation at load time with messages that
/// name the rule and the field, and the in-code form.
@Suite(.timeLimit(.suiteBound)) struct RewriteConfigurationTests {
    static let example = """
        {
          "rules": [
            { "name": "news", "hosts": ["img.example.com", "*.cdn.example.com"], "dialect": "qiniu",
              "width": 750, "quality": 75, "mode": 2, "pathPrefix": "/uploads/", "gif": true,
              "styleSeparator": "-", "styles": { "WebPiOSW750": "imageView2/2/w/750/format/webp" } },
            { "name": "oss", "hosts": ["oss.example.com"], "dialect": "aliyun-oss", "parameter": "x-bce-process" },
            { "hosts": ["t.example.com"], "dialect": "template", "template": "{scheme}://{host}{path}?fm=webp" }
          ],
          "client": { "webpSupport": "apple-webkit", "excludedDeviceClasses": ["tablet"] }
        }
        """

    @Test func decodesTheDocumentedExample() throws {
        let configuration = try RewriteConfiguration(json: Data(Self.example.utf8))
        #expect(configuration.rules.count == 3)
        let news = configuration.rules[0]
        #expect(news.name == "news")
        #expect(news.hosts == ["img.example.com", "*.cdn.example.com"])
        #expect(news.width == 750)
        #expect(news.quality == 75)
        #expect(news.pathPrefix == "/uploads/")
        #expect(news.convertsGIF)
        #expect(news.dialect == .qiniu(QiniuOptions(styles: ["WebPiOSW750": "imageView2/2/w/750/format/webp"])))
        #expect(configuration.rules[1].dialect == .aliyunOSS(AliyunOSSOptions(parameter: .bceProcess)))
        #expect(configuration.rules[2].dialect == .template("{scheme}://{host}{path}?fm=webp"))
        // The client section is the client policy's (ImageDeliveryTests read it).

        let rewriter = try Rewriter(configuration: configuration)
        let result = rewriter.rewrite(try #require(URL(string: "https://a.cdn.example.com/uploads/x.gif")))
        #expect(
            result.url.absoluteString
                == "https://a.cdn.example.com/uploads/x.gif?imageView2/2/w/750/format/webp/q/75/ignore-error/1")
        #expect(result.ruleName == "news")
        let prefixMiss = rewriter.rewrite(try #require(URL(string: "https://img.example.com/other/x.jpg")))
        #expect(prefixMiss.reason.kind == .pathPrefixNotMatched)
        #expect(rewriter.rewrite(try #require(URL(string: "http://t.example.com/a.png"))).ruleName == "rule 3")
    }

    @Test func encodingRoundTrips() throws {
        let configuration = try RewriteConfiguration(json: Data(Self.example.utf8))
        let encoded = try JSONEncoder().encode(configuration)
        #expect(try RewriteConfiguration(json: encoded) == configuration)
    }

    @Test func everyDialectRoundTripsThroughJSON() throws {
        let rules =
            Rules.everyDialect + [
                DialectExampleTests.qiniuStylesOnly, DialectExampleTests.thumborServer,
                Rules.rule(.aliyunOSS(AliyunOSSOptions(parameter: .imageProcess))),
                Rules.rule(.cloudflare, host: "gif.example.com", gif: true),
                Rules.rule(.tencentCI(TencentCIOptions(ignoreError: false)), width: nil, quality: 60),
            ]
        let configuration = RewriteConfiguration(rules: rules)
        let decoded = try RewriteConfiguration(json: try JSONEncoder().encode(configuration))
        #expect(decoded == configuration)
    }

    @Test func buildsInCode() throws {
        let configuration = RewriteConfiguration(rules: [
            RewriteRule(name: "photos", hosts: ["img.example.com"], dialect: .imgix, width: 640)
        ])
        try configuration.validate()
        let result = try Rewriter(configuration: configuration).rewrite(
            try #require(URL(string: "https://img.example.com/a.jpg")))
        #expect(result.url.absoluteString == "https://img.example.com/a.jpg?w=640&fm=webp")
    }

    /// Bad configurations and the rule and field their error must name.
    static let invalid: [(json: String, rule: String?, field: String?, mentions: String)] = [
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "qiniu", "width": 0}]}"#, #"rule 1 ("a")"#,
            "width", "between 1 and 16383"
        ),
        (
            #"{"rules": [{"hosts": ["x.com"], "dialect": "qiniu"},"#
                + #" {"name": "b", "hosts": ["y.com"], "dialect": "imgix", "quality": 101}]}"#,
            #"rule 2 ("b")"#, "quality", "between 1 and 100"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "webp-magic"}]}"#, #"rule 1 ("a")"#, "dialect",
            "unknown dialect"
        ),
        (#"{"rules": [{"name": "a", "hosts": ["x.com"]}]}"#, #"rule 1 ("a")"#, "dialect", "missing"),
        (#"{"rules": [{"name": "a", "dialect": "imgix"}]}"#, #"rule 1 ("a")"#, "hosts", "missing"),
        (#"{"rules": [{"name": "a", "hosts": [], "dialect": "imgix"}]}"#, #"rule 1 ("a")"#, "hosts", "at least one"),
        (
            #"{"rules": [{"name": "a", "hosts": ["http://x.com/"], "dialect": "imgix"}]}"#, #"rule 1 ("a")"#, "hosts",
            "not a host"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.*.com"], "dialect": "imgix"}]}"#, #"rule 1 ("a")"#, "hosts",
            "not a host"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "imgix", "widht": 750}]}"#, #"rule 1 ("a")"#,
            "widht", "unknown field"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "imgix", "mode": 1}]}"#, #"rule 1 ("a")"#, "mode",
            "unknown field for dialect 'imgix'"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "qiniu", "width": "750"}]}"#, #"rule 1 ("a")"#,
            "width", "whole number"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "qiniu", "mode": 9}]}"#, #"rule 1 ("a")"#, "mode",
            "between 0 and 5"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "qiniu", "styles": {"t": "resize/10"}}]}"#,
            #"rule 1 ("a")"#, "styles.t", "not Qiniu processing"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "qiniu", "stylesOnly": true, "width": 750,"#
                + #" "styles": {"t": "imageView2/2/w/300/format/webp"}}]}"#,
            #"rule 1 ("a")"#, "styles", "at width 750"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "qiniu-legacy"}]}"#, #"rule 1 ("a")"#, "width",
            "screen width"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "template","#
                + #" "template": "{scheme}://{host}{path}?w={width}"}]}"#,
            #"rule 1 ("a")"#, "width", "{width}"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "template","#
                + #" "template": "{scheme}://{host}{file}"}]}"#,
            #"rule 1 ("a")"#, "template", "unknown placeholder {file}"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "template", "template": "/{path}"}]}"#,
            #"rule 1 ("a")"#, "template", "must start"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "aliyun-oss", "parameter": "x-foo"}]}"#,
            #"rule 1 ("a")"#, "parameter", "x-oss-process"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "thumbor", "server": "thumbor.example.com"}]}"#,
            #"rule 1 ("a")"#, "server", "http(s) URL"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "imgix", "pathPrefix": "img/"}]}"#,
            #"rule 1 ("a")"#, "pathPrefix", "start with '/'"
        ),
        (
            #"{"rules": [{"name": "a", "hosts": ["x.com"], "dialect": "imgix", "schemes": ["ht tp"]}]}"#,
            #"rule 1 ("a")"#, "schemes", "not a URL scheme"
        ),
        (#"{"rules": ["x.com"]}"#, "rule 1", "rules", "JSON object"),
        (#"{"rules": {}}"#, nil, "rules", "list of rules"),
        (#"{"rule": []}"#, nil, "rule", "unknown field"),
        (#"{"rules": [}"#, nil, nil, "not valid JSON"),
        (#"[]"#, nil, nil, "top level"),
    ]

    @Test(arguments: invalid)
    func invalidConfigurationsFailAtLoadNamingRuleAndField(
        _ json: String, _ rule: String?, _ field: String?, _ mentions: String
    ) {
        #expect {
            _ = try RewriteConfiguration(json: Data(json.utf8))
        } throws: { error in
            guard let error = error as? RewriteConfigurationError else { return false }
            return error.rule == rule && error.field == field && error.description.contains(mentions)
        }
    }

    @Test func invalidRuleBuiltInCodeFailsWhenTheRewriterIsBuilt() {
        let configuration = RewriteConfiguration(rules: [
            RewriteRule(name: "ok", hosts: ["x.com"], dialect: .imgix),
            RewriteRule(name: "bad", hosts: ["y.com"], dialect: .cloudflare, width: 20_000),
        ])
        #expect(throws: RewriteConfigurationError.self) { try Rewriter(configuration: configuration) }
        do {
            _ = try Rewriter(configuration: configuration)
        } catch {
            #expect(
                error.description
                    == #"configuration rule 2 ("bad"), field 'width': must be between 1 and 16383 (WebP's limit),"#
                    + " got 20000")
        }
    }

    @Test func unreadableFileNamesThePath() {
        do {
            _ = try RewriteConfiguration(contentsOf: URL(fileURLWithPath: "/nonexistent/rules.json"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("cannot read configuration /nonexistent/rules.json"))
        }
    }

    @Test func overridingWidthAndQualityAppliesToEveryRule() {
        let configuration = RewriteConfiguration(rules: [Rules.qiniu, Rules.imgix]).overriding(width: 1080, quality: 60)
        #expect(configuration.rules.allSatisfy { $0.width == 1080 && $0.quality == 60 })
        let unchanged = RewriteConfiguration(rules: [Rules.qiniu]).overriding(width: nil, quality: nil)
        #expect(unchanged.rules == [Rules.qiniu])
    }
}
