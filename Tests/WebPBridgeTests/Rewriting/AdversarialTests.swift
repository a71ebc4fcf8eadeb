import Foundation
import TestTraits
import Testing
import WebPBridge

/// URLs built to fool a rewriter: foreign hosts that contain the image host,
/// `.jpg` outside the path's last segment, and awkward but valid URL shapes.
@Suite(.timeLimit(.suiteBound)) struct AdversarialTests {
    /// URLs that no rule for `img.example.com` may touch, whatever the dialect.
    static let foreign: [(String, RewriteReason.Kind)] = [
        ("http://img.example.com.evil.example/a.jpg", .noRuleForHost),
        ("http://evil.example/img.example.com/a.jpg", .noRuleForHost),
        ("http://evil.example/a.jpg?u=http://img.example.com/a.jpg", .noRuleForHost),
        ("http://img.example.com@evil.example/a.jpg", .noRuleForHost),
        ("http://evilimg.example.com/a.jpg", .noRuleForHost),
        ("http://example.com/a.jpg", .noRuleForHost),
        ("ftp://img.example.com/a.jpg", .schemeNotMatched),
        ("http://img.example.com/a.jpg/b.txt", .notAnImage),
        ("http://img.example.com/page.html?img=a.jpg", .notAnImage),
        ("http://img.example.com/page?x=.jpg", .notAnImage),
        ("http://img.example.com/a.php#b.jpg", .notAnImage),
        ("http://img.example.com/a.jpgx", .notAnImage),
        ("http://img.example.com/a.jpgx/b.gif", .gifNotEnabled),
        ("http://img.example.com/.jpg/", .notAnImage),
        ("http://img.example.com/", .notAnImage),
        ("http://img.example.com", .notAnImage),
    ]

    static let cases: [(RewriteRule, String, RewriteReason.Kind)] = Rules.everyDialect.flatMap { rule in
        foreign.map { (url, kind) in
            (rule, url.replacingOccurrences(of: "img.example.com", with: rule.hosts[0]), kind)
        }
    }

    @Test(arguments: cases)
    func foreignAndNonImageURLsAreByteIdentical(_ rule: RewriteRule, _ input: String, _ kind: RewriteReason.Kind) throws
    {
        try RewriteExample.keeps(rule, input, kind).check()
    }

    /// Processing steps the grammar cannot read back once edited (no mode, a
    /// key without its value): found by `fuzz-rewrite`, where each pass added
    /// another `/format/webp`. They are left alone; the CDN would refuse them.
    static let unreadablePipelines: [RewriteExample] = [Rules.qiniu, Rules.tencent].flatMap { rule in
        [
            "http://img.example.com/a.jpg?imageView2",
            "http://img.example.com/a.jpg?imageView2/format/webp",
            "http://img.example.com/a.jpg?imageView2/2/w/750/x",
            "http://img.example.com/a.jpg?imageView2/2/w/750/",
            "http://img.example.com/a.jpg?imageMogr2/format",
            "http://img.example.com/a.jpg?imageMogr2/thumbnail/format",
        ].map { RewriteExample.keeps(rule, $0, .notRewritable) }
    }

    @Test(arguments: unreadablePipelines)
    func pipelinesAnEditCannotFixAreLeftAlone(_ example: RewriteExample) throws {
        try example.check()
    }

    /// Two `format,` actions (found by `fuzz-rewrite`): only the first was
    /// replaced, so each pass rewrote the URL again.
    @Test func ossProcessingWithTwoFormatsIsRewrittenOnce() throws {
        try RewriteExample.rewrites(
            Rules.aliyun, "http://img.example.com/a.jpg?x-oss-process=image/format,png/resize,w_10/format,jpg",
            "http://img.example.com/a.jpg?x-oss-process=image/resize,w_10/format,webp"
        ).check()
    }

    /// Valid but awkward URLs every dialect must rewrite without losing a part.
    static let awkward: [String] = [
        "http://img.example.com/a.jpg#frag",
        "http://img.example.com:8080/a.jpg",
        "https://img.example.com:443/a.jpg",
        "http://user:pass@img.example.com/a.jpg",
        "http://img.example.com/a.jpg?&&v=1&v=1",
        "http://img.example.com/a.jpg?",
        "http://img.example.com/A.JPG",
        "http://img.example.com/photo.JPG-thumb",
        "http://img.example.com/%E5%9B%BE%E7%89%87.jpg",
        "http://img.example.com/dir%20name/a%2Bb.png",
        "http://IMG.Example.COM/a.jpeg",
        "http://img.example.com./a.jpg",
    ]

    static let awkwardCases: [(RewriteRule, String)] = Rules.everyDialect.flatMap { rule in
        // Cloudinary rewrites only its delivery paths.
        let base = rule.dialect == .cloudinary ? "/demo/image/upload" : ""
        return awkward.map { url in
            let host = url.contains("IMG.Example.COM") ? rule.hosts[0].uppercased() : rule.hosts[0]
            let replaced = url.replacingOccurrences(of: "img.example.com", with: host)
                .replacingOccurrences(of: "IMG.Example.COM", with: host)
            let pathStart = replaced.range(
                of: "/", range: replaced.index(replaced.startIndex, offsetBy: 8)..<replaced.endIndex)!
            return (rule, replaced.replacingCharacters(in: pathStart, with: base + "/"))
        }
    }

    @Test(arguments: awkwardCases)
    func awkwardURLsAreRewrittenKeepingEveryPart(_ rule: RewriteRule, _ input: String) throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [rule]))
        let url = try #require(URL(string: input))
        let result = rewriter.rewrite(url)
        #expect(result.isRewritten, "\(result.reason)")
        let output = try #require(URLComponents(url: result.url, resolvingAgainstBaseURL: false))
        let original = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        // The variant is the URL as a browser serialises it: scheme and host
        // lower-cased, the scheme's default port dropped.
        #expect(output.scheme == original.scheme?.lowercased())
        #expect(output.host == original.host?.lowercased())
        let defaultPort = original.scheme?.lowercased() == "https" ? 443 : 80
        #expect(output.port == (original.port == defaultPort ? nil : original.port))
        if case .template = rule.dialect {
            // {host} is the host and port: a template does not carry user info over.
        } else {
            #expect(output.user == original.user)
            #expect(output.password == original.password)
        }
        #expect(output.fragment == original.fragment)
        #expect(!result.cacheKey.contains("#"))
        // The source path survives (inside the new path for path-changing dialects).
        let sourceName = original.percentEncodedPath.split(separator: "/").last.map(String.init) ?? ""
        #expect(result.url.absoluteString.contains(sourceName.prefix(while: { $0 != "-" })))
        let again = rewriter.rewrite(result.url)
        #expect(again.url == result.url)
    }

    @Test func nonASCIIPathsKeepTheirEncoding() throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniu]))
        // Through the WHATWG parser: `URL(string:)` holds raw non-ASCII only
        // when linked on iOS 17 or later (issue 28, item 8).
        let url = try #require(URL(whatwg: "http://img.example.com/图片/照片.jpg"))
        let result = rewriter.rewrite(url)
        #expect(
            result.url.absoluteString
                == "http://img.example.com/%E5%9B%BE%E7%89%87/%E7%85%A7%E7%89%87.jpg"
                + "?imageView2/2/w/750/format/webp/ignore-error/1")
        #expect(result.url.path == "/图片/照片.jpg")
    }

    @Test func userInfoFragmentAndPortAreKeptInTheVariant() throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniu]))
        let url = try #require(URL(string: "HTTP://u:p@IMG.example.com:80/a.jpg?&v=1&v=1#top"))
        let result = rewriter.rewrite(url)
        // Serialised as a browser would: the default port :80 is the same URL without it.
        #expect(
            result.url.absoluteString
                == "http://u:p@img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1&&v=1&v=1#top")
        #expect(
            result.cacheKey == "http://u:p@img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1&&v=1&v=1"
        )
    }

    @Test func uppercaseAndStyledExtensionsMatch() throws {
        let rewriter = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniu, Rules.qiniuLegacy]))
        let styled = rewriter.rewrite(try #require(URL(string: "http://img.example.com/photo.JPG-thumb")))
        #expect(
            styled.url.absoluteString
                == "http://img.example.com/photo.JPG-thumb?imageView2/2/w/750/format/webp/ignore-error/1")
        let legacy = rewriter.rewrite(try #require(URL(string: "http://img.host.com/photo.JPG-thumb")))
        #expect(legacy.url.absoluteString == "http://img.host.com/photo.JPG-WebPiOSW750")
        let bang = rewriter.rewrite(try #require(URL(string: "http://img.example.com/photo.PNG!w300")))
        #expect(bang.isRewritten)
    }

    @Test func gifIsRewrittenOnlyWhenTheRuleOptsIn() throws {
        let url = try #require(URL(string: "http://img.example.com/anim.gif"))
        let off = try Rewriter(configuration: RewriteConfiguration(rules: [Rules.qiniu])).rewrite(url)
        #expect(off.reason.kind == .gifNotEnabled)
        #expect(off.url == url)
        let on = try Rewriter(
            configuration: RewriteConfiguration(rules: [Rules.rule(.qiniu(QiniuOptions()), gif: true)])
        )
        .rewrite(url)
        #expect(
            on.url.absoluteString == "http://img.example.com/anim.gif?imageView2/2/w/750/format/webp/ignore-error/1")
    }
}
