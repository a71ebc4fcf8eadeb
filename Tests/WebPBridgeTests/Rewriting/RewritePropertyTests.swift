import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// Properties that must hold for every URL, checked over generated URLs
/// (seeded, so every run draws the same ones).
@Suite(.timeLimit(.suiteBound)) struct RewritePropertyTests {
    static let count = 600

    /// Dialects that move the source path inside a new path.
    static func changesPath(_ rule: RewriteRule) -> Bool {
        switch rule.dialect {
        case .qiniuLegacy, .cloudinary, .cloudflare, .thumbor: true
        default: false
        }
    }

    @Test(arguments: Rules.everyDialect)
    func rewritingHoldsItsPropertiesOnGeneratedURLs(_ rule: RewriteRule) throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
        var generator = SeededGenerator(seed: UInt64(rule.dialect.name.utf8.count) &* 7919)
        var rewritten = 0
        for _ in 0..<Self.count {
            let pathBase = rule.dialect == .cloudinary ? "/demo/image/upload" : ""
            let input = URLGenerator.url(around: rule.hosts[0], pathBase: pathBase, using: &generator)
            guard let url = URL(string: input) else { continue }
            let result = rewriter.rewrite(url)
            let host = url.host?.lowercased() ?? ""
            let ownHost = host == rule.hosts[0] || host == rule.hosts[0] + "."

            // Unchanged URLs are byte-identical.
            if !result.isRewritten {
                #expect(result.url.absoluteString == url.absoluteString, "\(input)")
            }
            // Never rewritten outside the rule's hosts.
            if !ownHost {
                #expect(!result.isRewritten, "rewrote a foreign host: \(input)")
            }
            // Idempotent, and a URL and its variant share a cache key.
            let again = rewriter.rewrite(result.url)
            #expect(again.url.absoluteString == result.url.absoluteString, "not idempotent: \(input) → \(result.url)")
            #expect(!again.isRewritten, "\(input)")
            #expect(again.cacheKey == result.cacheKey, "\(input)")

            guard result.isRewritten else { continue }
            rewritten += 1
            // The output parses back with the same scheme, host and (unless the dialect moves it) path.
            let parsed = try #require(URL(string: result.url.absoluteString), "\(result.url)")
            #expect(parsed.scheme == url.scheme?.lowercased(), "\(input)")
            #expect(parsed.host == url.host?.lowercased(), "\(input)")
            if Self.changesPath(rule) {
                let name = url.lastPathComponent.prefix(while: { $0 != "." })
                #expect(parsed.path.contains(name), "\(input) → \(parsed)")
            } else {
                #expect(parsed.path == url.path, "\(input) → \(parsed)")
            }
            // The cache key is normalised.
            #expect(!result.cacheKey.contains("#"))
            #expect(result.cacheKey == result.cacheKey.lowercased() || !result.cacheKey.hasPrefix("HTTP"))
        }
        // The generator must exercise the rewriting branch, not only refusals.
        #expect(rewritten > Self.count / 20, "only \(rewritten) of \(Self.count) rewritten")
    }

    @Test func wildcardHostsMatchSubdomainsOnly() throws {
        let rule = RewriteRule(name: "wild", hosts: ["*.example.com"], dialect: .qiniu(QiniuOptions()), width: 750)
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<Self.count {
            let input = URLGenerator.url(around: "img.example.com", using: &generator)
            guard let url = URL(string: input) else { continue }
            let result = rewriter.rewrite(url)
            let host = url.host?.lowercased() ?? ""
            if result.isRewritten {
                #expect(host.hasSuffix(".example.com") || host.hasSuffix(".example.com."), "\(input)")
            } else {
                #expect(result.url.absoluteString == url.absoluteString)
            }
        }
    }

    @Test func generatorIsDeterministic() {
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        let a = (0..<20).map { _ in URLGenerator.url(around: "img.example.com", using: &first) }
        let b = (0..<20).map { _ in URLGenerator.url(around: "img.example.com", using: &second) }
        #expect(a == b)
    }
}
