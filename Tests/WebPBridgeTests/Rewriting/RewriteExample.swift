import Foundation
import Testing
import WebPBridge

/// One row of a table-driven rewrite test: a rule, an input URL, and the
/// expected output (`nil` when the URL must come back byte-identical).
struct RewriteExample: Sendable, CustomTestStringConvertible {
    let rule: RewriteRule
    let input: String
    let expected: String?
    let kind: RewriteReason.Kind

    /// A URL the rule rewrites to `expected`.
    static func rewrites(_ rule: RewriteRule, _ input: String, _ expected: String) -> RewriteExample {
        RewriteExample(rule: rule, input: input, expected: expected, kind: .rewritten)
    }

    /// A URL the rule leaves alone, for the given reason.
    static func keeps(_ rule: RewriteRule, _ input: String, _ kind: RewriteReason.Kind) -> RewriteExample {
        RewriteExample(rule: rule, input: input, expected: nil, kind: kind)
    }

    var testDescription: String { "\(rule.dialect.name): \(input)" }

    /// Runs the example: the outcome, byte-identity when unchanged, idempotence.
    func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
        let url = try #require(URL(string: input), sourceLocation: sourceLocation)
        let result = rewriter.rewrite(url)
        #expect(result.reason.kind == kind, "\(result.reason)", sourceLocation: sourceLocation)
        if let expected {
            #expect(result.url.absoluteString == expected, sourceLocation: sourceLocation)
        } else {
            #expect(result.url.absoluteString == url.absoluteString, sourceLocation: sourceLocation)
        }
        let again = rewriter.rewrite(result.url)
        #expect(again.url.absoluteString == result.url.absoluteString, "not idempotent", sourceLocation: sourceLocation)
        #expect(again.cacheKey == result.cacheKey, sourceLocation: sourceLocation)
    }
}

/// Rules used across the suites; hosts are illustrative.
enum Rules {
    static let host = "img.example.com"

    static func rule(
        _ dialect: RewriteDialect, host: String = host, width: Int? = 750, quality: Int? = nil, gif: Bool = false
    ) -> RewriteRule {
        RewriteRule(
            name: dialect.name, hosts: [host], dialect: dialect, width: width, quality: quality, convertsGIF: gif)
    }

    static let qiniu = rule(.qiniu(QiniuOptions()))
    static let qiniuLegacy = rule(.qiniuLegacy, host: "img.host.com")
    static let tencent = rule(.tencentCI(TencentCIOptions()))
    static let aliyun = rule(.aliyunOSS(AliyunOSSOptions()))
    static let cloudinary = rule(.cloudinary, host: "res.cloudinary.com")
    static let imgix = rule(.imgix)
    static let cloudflare = rule(.cloudflare)
    static let thumbor = rule(.thumbor(ThumborOptions()))
    static let template = rule(.template("{scheme}://{host}{path}?{query}&format=webp&w={width}"))

    /// One rule per dialect, each for its own host.
    static let everyDialect: [RewriteRule] = [
        qiniu, qiniuLegacy, tencent, aliyun, cloudinary, imgix, cloudflare, thumbor, template,
    ]
}
