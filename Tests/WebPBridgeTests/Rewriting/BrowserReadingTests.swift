import Foundation
import TestTraits
import Testing
import WebPBridge

/// Finding 10 of issue 26: URLs the rewriter read unlike a browser.
@Suite(.timeLimit(.suiteBound)) struct BrowserReadingTests {
    static let thumbor = try! Rewriter(configuration: RewriteConfiguration(rules: [Rules.thumbor]))
    static let cloudflare = try! Rewriter(configuration: RewriteConfiguration(rules: [Rules.cloudflare]))

    /// Dot segments are resolved before a path-prefix dialect adds its prefix:
    /// `/unsafe/…/foo/../../../ton.jpg` would resolve to `/ton.jpg`, prefix gone.
    @Test func dotSegmentsAreResolvedBeforeAPathPrefix() throws {
        let input = "http://img.example.com/foo/../../../ton.jpg"
        let url = try #require(URL(string: input))
        let thumbor = "http://img.example.com/unsafe/fit-in/750x0/filters:format(webp)/ton.jpg"
        let cloudflare = "http://img.example.com/cdn-cgi/image/width=750,format=webp,onerror=redirect/ton.jpg"
        #expect(Self.thumbor.rewrite(url).url.absoluteString == thumbor)
        #expect(Self.thumbor.rewrite(input, relativeTo: nil)?.url.absoluteString == thumbor)
        #expect(Self.cloudflare.rewrite(url).url.absoluteString == cloudflare)
        #expect(Self.cloudflare.rewrite("/a/%2e%2E/ton.jpg", relativeTo: url)?.url.absoluteString == cloudflare)
    }

    /// A malformed escape is never encoded again (`%2.` → `%252.` names another file).
    @Test(arguments: ["http://img.example.com/foo/%2e%2.jpg", "http://img.example.com/a.jpg?%GH"])
    func malformedEscapesAreNotEncodedAgain(_ input: String) throws {
        for rule in Rules.everyDialect {
            let placed = RewriteRule(
                name: rule.name, hosts: ["img.example.com"], dialect: rule.dialect, width: rule.width)
            let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [placed]))
            let result = try #require(rewriter.rewrite(input, relativeTo: nil), "\(rule.dialect.name)")
            // Either a variant that keeps the escape as written, or no variant at all.
            if result.isRewritten {
                #expect(!result.url.absoluteString.contains("%25"), "\(rule.dialect.name): \(result.url)")
            } else {
                #expect(result.reason.kind == .notRewritable, "\(rule.dialect.name): \(result.reason)")
            }
        }
    }

    @Test func backslashesTabsAndNewlinesAreReadAsABrowserReadsThem() {
        let expected = "http://a:b@img.example.com/unsafe/fit-in/750x0/filters:format(webp)/a.jpg"
        #expect(
            Self.thumbor.rewrite("http://a:b@img.example.com\\a.jpg", relativeTo: nil)?.url.absoluteString == expected)
        let tab = Self.thumbor.rewrite("http://a:b@img.example.com/a\t.j\npg\r", relativeTo: nil)
        #expect(tab?.url.absoluteString == expected)
    }

    @Test func anOutOfRangePortIsNotAURL() throws {
        let url = try #require(URL(string: "http://img.example.com:999999/a.jpg"))
        let result = Self.thumbor.rewrite(url)
        #expect(!result.isRewritten)
        #expect(result.reason.kind == .notAbsolute)
        #expect(result.url == url)
        #expect(Self.thumbor.rewrite("http://img.example.com:999999/a.jpg", relativeTo: nil) == nil)
        #expect(Self.thumbor.rewrite("http://img.example.com:65535/a.jpg", relativeTo: nil)?.isRewritten == true)
    }

    /// IDNA: a non-ASCII host is left alone (no UTS #46 here); an ASCII `xn--` host works as before.
    @Test func internationalisedHosts() throws {
        let rule = RewriteRule(name: "idn", hosts: ["xn--fiqs8s.example"], dialect: .imgix)
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
        #expect(
            rewriter.rewrite("http://xn--fiqs8s.example/a.jpg", relativeTo: nil)?.url.absoluteString
                == "http://xn--fiqs8s.example/a.jpg?fm=webp")
        #expect(rewriter.rewrite("http://中国.example/a.jpg", relativeTo: nil) == nil)
        #expect(throws: URLParseError.idnaUnsupported) { try WHATWGURL("http://中国.example/") }
    }
}
