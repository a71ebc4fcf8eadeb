import Foundation
import TestTraits
import Testing
import WebPBridge

/// Cache keys: the variant's normalised URL, shared by a URL and its variant.
@Suite(.timeLimit(.suiteBound)) struct CacheKeyTests {
    static let normalisation: [(String, String)] = [
        ("http://img.example.com/a.jpg", "http://img.example.com/a.jpg"),
        ("HTTP://IMG.Example.COM/A.jpg", "http://img.example.com/A.jpg"),
        ("http://img.example.com:80/a.jpg", "http://img.example.com/a.jpg"),
        ("https://img.example.com:443/a.jpg", "https://img.example.com/a.jpg"),
        ("http://img.example.com:443/a.jpg", "http://img.example.com:443/a.jpg"),
        ("https://img.example.com:8443/a.jpg", "https://img.example.com:8443/a.jpg"),
        ("http://img.example.com/a.jpg#frag", "http://img.example.com/a.jpg"),
        ("http://img.example.com/a.jpg?b=1&a=2#", "http://img.example.com/a.jpg?b=1&a=2"),
        ("http://User@Img.example.com/%7Ea.jpg", "http://User@img.example.com/%7Ea.jpg"),
        ("http://[::1]:80/a.jpg", "http://[::1]/a.jpg"),
    ]

    @Test(arguments: normalisation)
    func keysAreNormalised(_ input: String, _ key: String) throws {
        let url = try #require(URL(string: input))
        #expect(Rewriter.normalizedCacheKey(for: url) == key)
    }

    @Test func aURLAndItsVariantShareAKey() throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniuLegacy]))
        let url = try #require(URL(string: "HTTP://img.host.com:80/a/b.jpg#x"))
        let key = rewriter.cacheKey(for: url)
        #expect(key == "http://img.host.com/a/b.jpg-WebPiOSW750")
        #expect(rewriter.cacheKey(for: rewriter.rewrite(url).url) == key)
        #expect(rewriter.cacheKey(for: try #require(URL(string: "http://img.host.com/a/b.jpg-WebPiOSW750"))) == key)
    }

    @Test func unmatchedURLsAreTheirOwnKey() throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniu]))
        #expect(
            rewriter.cacheKey(for: try #require(URL(string: "http://other.example.com/a.jpg#f")))
                == "http://other.example.com/a.jpg")
        #expect(rewriter.cacheKey(for: try #require(URL(string: "a.jpg#f"))) == "a.jpg")
    }
}
