import Foundation
import TestTraits
import Testing
import WebPBridge

/// One document in, the expected document out: what is rewritten, and
/// everything that must stay byte for byte as written. `{I}` stands for
/// `https://img.example.com` and `{V}` for Qiniu's WebP suffix; a row with
/// no expected output must come out unchanged. Each row is also rewritten
/// one byte at a time, with the same result.
@Suite(.timeLimit(.suiteBound)) struct RewriteTableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var expected: String?
        var testDescription: String { name }

        init(_ name: String, _ input: String, _ expected: String? = nil) {
            self.name = name
            self.input = input
            self.expected = expected
        }
    }

    static func expand(_ text: String) -> String {
        text.replacingOccurrences(of: "{I}", with: "https://img.example.com")
            .replacingOccurrences(of: "{V}", with: HTMLFixture.suffix)
    }

    static let images: [Row] = [
        Row("double-quoted src", #"<img src="{I}/a.jpg">"#, #"<img src="{I}/a.jpg{V}">"#),
        Row("single-quoted src", "<img src='{I}/a.jpg'>", "<img src='{I}/a.jpg{V}'>"),
        Row("unquoted src", "<img src={I}/a.jpg>", "<img src={I}/a.jpg{V}>"),
        Row("unquoted src, then more", "<img src={I}/a.jpg alt=x>", "<img src={I}/a.jpg{V} alt=x>"),
        Row("upper-case tag and name", #"<IMG SRC="{I}/a.jpg">"#, #"<IMG SRC="{I}/a.jpg{V}">"#),
        Row("mixed case", #"<Img sRc = "{I}/a.jpg" >"#, #"<Img sRc = "{I}/a.jpg{V}" >"#),
        Row("PNG", #"<img src="{I}/b.png">"#, #"<img src="{I}/b.png{V}">"#),
        Row("relative", #"<img src="a.jpg">"#, #"<img src="{I}/news/a.jpg{V}">"#),
        Row("root-relative", #"<img src="/a.jpg">"#, #"<img src="{I}/a.jpg{V}">"#),
        Row("dot segments", #"<img src="../p/./a.jpg">"#, #"<img src="{I}/p/a.jpg{V}">"#),
        Row("scheme-relative", #"<img src="//img.example.com/a.jpg">"#, #"<img src="{I}/a.jpg{V}">"#),
        Row("spaces around the URL kept", #"<img src="  {I}/a.jpg ">"#, #"<img src="  {I}/a.jpg{V} ">"#),
        Row(
            "&amp; decoded, re-encoded", #"<img src="{I}/a.jpg?w=1&amp;h=2">"#,
            #"<img src="{I}/a.jpg{V}&amp;w=1&amp;h=2">"#),
        Row(
            "&#38; decoded, written &amp;", #"<img src="{I}/a.jpg?w=1&#38;h=2">"#,
            #"<img src="{I}/a.jpg{V}&amp;w=1&amp;h=2">"#),
        Row("bare & written &amp;", #"<img src="{I}/a.jpg?w=1&h=2">"#, #"<img src="{I}/a.jpg{V}&amp;w=1&amp;h=2">"#),
        Row("percent-encoding kept", #"<img src="{I}/a%20b.jpg">"#, #"<img src="{I}/a%20b.jpg{V}">"#),
        Row("non-ASCII path", #"<img src="/图.jpg">"#, #"<img src="{I}/%E5%9B%BE.jpg{V}">"#),
        Row("self-closing", #"<img src="{I}/a.jpg"/>"#, #"<img src="{I}/a.jpg{V}"/>"#),
        Row(
            "quoted > inside another attribute", #"<img alt="a > b" src="{I}/a.jpg">"#,
            #"<img alt="a > b" src="{I}/a.jpg{V}">"#),
        Row(
            "a quote in a single-quoted value", #"<img title='it"s' src={I}/a.jpg>"#,
            #"<img title='it"s' src={I}/a.jpg{V}>"#),
        Row(
            "only the first of two src", #"<img src="{I}/a.jpg" src="{I}/b.jpg">"#,
            #"<img src="{I}/a.jpg{V}" src="{I}/b.jpg">"#),
        Row("<noscript> is raw text (scripting on)", "<noscript><img src={I}/a.jpg></noscript>"),
        // A browser reads `\` as `/` in an http(s) URL, and drops tabs and newlines.
        Row("a backslash", #"<img src="{I}\a.jpg">"#, #"<img src="{I}/a.jpg{V}">"#),
        Row("a tab and a newline", "<img src=\"{I}/a.j\tp\ng\">", #"<img src="{I}/a.jpg{V}">"#),
        Row(
            "dot segments before a path-prefix dialect", #"<img src="{I}/x/../a.jpg">"#,
            #"<img src="{I}/a.jpg{V}">"#),
    ]

    static let untouchedImages: [Row] = [
        Row("data: URL", #"<img src="data:image/jpeg;base64,/9j/4AAQSkZJRg==">"#),
        Row("DATA: URL in upper case", #"<img src="DATA:image/png;base64,iVBORw0KGgo=">"#),
        Row("foreign host", #"<img src="https://www.example.org/a.jpg">"#),
        Row("look-alike host", #"<img src="https://img.example.com.evil.example/a.jpg">"#),
        Row("not an image", #"<img src="{I}/a.svg">"#),
        Row("already WebP", #"<img src="{I}/a.webp">"#),
        Row("already a variant", #"<img src="{I}/a.jpg{V}">"#),
        Row("GIF (the rule does not convert GIFs)", #"<img src="{I}/a.gif">"#),
        Row("empty src", #"<img src="">"#),
        Row("javascript:", #"<img src="javascript:alert('a.jpg')">"#),
        Row("fragment only", ##"<img src="#a.jpg">"##),
        Row("an unknown named reference", #"<img src="{I}/a.jpg?c=&copy;">"#),
        Row("non-ASCII query (the page's encoding)", #"<img src="/a.jpg?q=图">"#),
        Row("unquoted value takes the slash", "<img src={I}/a.jpg/>"),
        Row("img without src", #"<img alt="{I}/a.jpg">"#),
        Row("data-src (lazy loaders)", #"<img data-src="{I}/a.jpg">"#),
        Row("a link to an image", #"<a href="{I}/a.jpg">photo</a>"#),
        Row("iframe src", #"<iframe src="{I}/a.jpg"></iframe>"#),
        Row("video poster", #"<video poster="{I}/a.jpg"><source src="{I}/a.jpg"></video>"#),
        Row("og:image (crawlers may not decode WebP)", #"<meta property="og:image" content="{I}/a.jpg">"#),
    ]

    static let sourceSets: [Row] = [
        Row(
            "density descriptors", #"<img srcset="a.jpg 1x, b.jpg 2x">"#,
            #"<img srcset="{I}/news/a.jpg{V} 1x, {I}/news/b.jpg{V} 2x">"#),
        Row(
            "width descriptors and sizes", #"<img srcset="/a.jpg 480w,/b.jpg 800w" sizes="50vw">"#,
            #"<img srcset="{I}/a.jpg{V} 480w,{I}/b.jpg{V} 800w" sizes="50vw">"#),
        Row("one URL, no descriptor", #"<img srcset="/a.jpg">"#, #"<img srcset="{I}/a.jpg{V}">"#),
        Row(
            "a comma inside a URL", #"<img srcset="/a.jpg?x=1,2 1x, /b.jpg 2x">"#,
            #"<img srcset="{I}/a.jpg{V}&amp;x=1,2 1x, {I}/b.jpg{V} 2x">"#),
        Row(
            "trailing commas end a URL", #"<img srcset="/a.jpg,, /b.jpg">"#,
            #"<img srcset="{I}/a.jpg{V},, {I}/b.jpg{V}">"#),
        Row(
            "newlines and tabs", "<img srcset=\"/a.jpg 1x,\n\t/b.jpg 2x\">",
            "<img srcset=\"{I}/a.jpg{V} 1x,\n\t{I}/b.jpg{V} 2x\">"),
        Row(
            "foreign and data: candidates kept",
            #"<img srcset="https://www.example.org/a.jpg 1x, data:a,b 2x, /c.jpg 3x">"#,
            #"<img srcset="https://www.example.org/a.jpg 1x, data:a,b 2x, {I}/c.jpg{V} 3x">"#),
        Row("upper-case SRCSET", "<IMG SRCSET='/a.jpg 2X'>", "<IMG SRCSET='{I}/a.jpg{V} 2X'>"),
        Row(
            "picture sources", #"<picture><source srcset="/a.jpg" type="image/jpeg"><img src="/b.jpg"></picture>"#,
            #"<picture><source srcset="{I}/a.jpg{V}" type="image/jpeg"><img src="{I}/b.jpg{V}"></picture>"#),
        Row(
            "source with media", #"<source media="(min-width: 800px)" srcset="/a.jpg 1x, /b.jpg 2x">"#,
            #"<source media="(min-width: 800px)" srcset="{I}/a.jpg{V} 1x, {I}/b.jpg{V} 2x">"#),
    ]

    static let links: [Row] = [
        Row(
            "preload as image", #"<link rel="preload" as="image" href="/a.jpg">"#,
            #"<link rel="preload" as="image" href="{I}/a.jpg{V}">"#),
        Row(
            "preload with imagesrcset", "<link rel=preload as=image href=/a.jpg imagesrcset=\"/a.jpg 1x, /b.jpg 2x\">",
            "<link rel=preload as=image href={I}/a.jpg{V} imagesrcset=\"{I}/a.jpg{V} 1x, {I}/b.jpg{V} 2x\">"),
        Row(
            "attribute order and case", #"<LINK HREF="/a.jpg" AS="Image" REL="Preload">"#,
            #"<LINK HREF="{I}/a.jpg{V}" AS="Image" REL="Preload">"#),
        Row(
            "rel with several tokens", #"<link rel="foo preload" as="image" href="/a.jpg">"#,
            #"<link rel="foo preload" as="image" href="{I}/a.jpg{V}">"#),
        Row("preload as font", #"<link rel="preload" as="font" href="/a.jpg">"#),
        Row("stylesheet", #"<link rel="stylesheet" href="/a.jpg">"#),
        Row("icon", #"<link rel="icon" href="/a.png">"#),
    ]

    static let styles: [Row] = [
        Row(
            "inline url()", #"<div style="background-image: url(/a.jpg)">"#,
            #"<div style="background-image: url({I}/a.jpg{V})">"#),
        Row(
            "inline url('')", #"<div style="background: url('/a.jpg') no-repeat">"#,
            #"<div style="background: url('{I}/a.jpg{V}') no-repeat">"#),
        Row(
            "inline url(\"\") in single quotes", #"<div style='background: url("/a.jpg")'>"#,
            #"<div style='background: url("{I}/a.jpg{V}")'>"#),
        Row(
            "inline url(&quot;&quot;)", #"<div style="background: url(&quot;/a.jpg&quot;)">"#,
            #"<div style="background: url(&quot;{I}/a.jpg{V}&quot;)">"#),
        Row(
            "inline URL() upper case", #"<div STYLE="background: URL(/a.jpg)">"#,
            #"<div STYLE="background: URL({I}/a.jpg{V})">"#),
        Row(
            "inline url( spaced )", #"<div style="background: url( /a.jpg )">"#,
            #"<div style="background: url( {I}/a.jpg{V} )">"#),
        Row(
            "two url()s", #"<div style="background: url(/a.jpg), url(/b.png)">"#,
            #"<div style="background: url({I}/a.jpg{V}), url({I}/b.png{V})">"#),
        Row("myurl() is not url()", #"<div style="--x: myurl(/a.jpg)">"#),
        Row("inline data: url()", #"<div style="background: url(data:image/png;base64,AAAA)">"#),
        Row("url() in a CSS string", #"<div style="content: 'url(/a.jpg)'">"#),
        Row(
            "<style> url()", "<style>.a { background: url(/a.jpg) }</style>",
            "<style>.a { background: url({I}/a.jpg{V}) }</style>"),
        Row(
            "<style> url(\"\")", #"<style>.a{background:url("/a.jpg")}</style>"#,
            #"<style>.a{background:url("{I}/a.jpg{V}")}</style>"#),
        Row(
            "<STYLE> URL()", "<STYLE>.a{background:URL(/a.jpg)}</STYLE>",
            "<STYLE>.a{background:URL({I}/a.jpg{V})}</STYLE>"),
        Row("<style> comment", "<style>/* url(/a.jpg) */ .b{}</style>"),
        Row("<style> string", #"<style>.a{content:"url(/a.jpg)"}</style>"#),
        Row("<style> @import", "<style>@import url(site.css);</style>"),
        Row(
            "<style> &amp; is not a reference", "<style>.a{background:url(/a.jpg?a=1&amp;b)}</style>",
            "<style>.a{background:url({I}/a.jpg{V}&a=1&amp;b)}</style>"),
        Row(
            "an unfinished url( ends with </style>", "<style>.a{background:url(/a.jpg</style><img src=/b.jpg>",
            "<style>.a{background:url(/a.jpg</style><img src={I}/b.jpg{V}>"),
        Row(
            "<img> text inside <style> is CSS", "<style>/*<img src=/a.jpg>*/</style><img src=/a.jpg>",
            "<style>/*<img src=/a.jpg>*/</style><img src={I}/a.jpg{V}>"),
    ]

    static let untouchedContexts: [Row] = [
        Row("script", #"<script>document.write('<img src="/a.jpg">')</script>"#),
        Row("SCRIPT in upper case", "<SCRIPT>x='<img src=/a.jpg>'</SCRIPT >"),
        Row("</scriptx> does not end a script", #"<script>a="</scriptx><img src=/a.jpg>"</script>"#),
        Row("script url() is not CSS", "<script>x = 'url(/a.jpg)';</script>"),
        Row("comment", #"<!-- <img src="/a.jpg"> -->"#),
        Row("comment with dashes", "<!-- a -- b --- <img src=/a.jpg> -- -->"),
        Row("CDATA", #"<svg><![CDATA[<img src="/a.jpg">]]></svg>"#),
        Row("textarea", #"<textarea><img src="/a.jpg"></textarea>"#),
        Row("title", "<title><img src=/a.jpg></title>"),
        Row("doctype", "<!DOCTYPE html>"),
        Row("entities in text", "<p>Tom &amp; Jerry &lt;img src=/a.jpg&gt; &copy;</p>"),
        Row("unterminated tag at the end", #"<p>x</p><img src="/a.jpg""#),
        Row("unterminated comment at the end", "<!-- <img src=/a.jpg>"),
        Row("unterminated quote swallows the rest", #"<img src="/a.jpg>more <img src=/b.jpg>"#),
        Row("a lone < at the end", "a <"),
        Row("unterminated script", "<script><img src=/a.jpg>"),
        Row("plaintext to the end", "<plaintext><img src=/a.jpg></plaintext><img src=/a.jpg>"),
    ]

    static let recovery: [Row] = [
        Row("after --!>", "<!-- x --!><img src=/a.jpg>", "<!-- x --!><img src={I}/a.jpg{V}>"),
        Row("after <!-->", "<!--><img src=/a.jpg>", "<!--><img src={I}/a.jpg{V}>"),
        Row("after <!--->", "<!---><img src=/a.jpg>", "<!---><img src={I}/a.jpg{V}>"),
        Row("after <?xml?>", #"<?xml version="1"?><img src=/a.jpg>"#, #"<?xml version="1"?><img src={I}/a.jpg{V}>"#),
        Row("after a < in text", "a < b <img src=/a.jpg>", "a < b <img src={I}/a.jpg{V}>"),
        Row("after </>", "</><img src=/a.jpg>", "</><img src={I}/a.jpg{V}>"),
        Row(
            "after an end tag with a quoted >", #"</p title=">"><img src=/a.jpg>"#,
            #"</p title=">"><img src={I}/a.jpg{V}>"#),
        Row("after </script >", "<script>x</script ><img src=/a.jpg>", "<script>x</script ><img src={I}/a.jpg{V}>"),
        Row("after </ScRiPt>", "<script>x</ScRiPt><img src=/a.jpg>", "<script>x</ScRiPt><img src={I}/a.jpg{V}>"),
        Row("after a bogus <!x>", "<!x><img src=/a.jpg>", "<!x><img src={I}/a.jpg{V}>"),
    ]

    static let bases: [Row] = [
        Row(
            "<base href>", #"<base href="https://img.example.com/other/"><img src="a.jpg">"#,
            #"<base href="https://img.example.com/other/"><img src="{I}/other/a.jpg{V}">"#),
        Row(
            "only the first <base>", #"<base href="/x/"><base href="/y/"><img src="a.jpg">"#,
            #"<base href="/x/"><base href="/y/"><img src="{I}/x/a.jpg{V}">"#),
        Row(
            "<base> to a foreign host",
            #"<base href="https://www.example.org/"><img src="a.jpg"><img src="{I}/b.jpg">"#,
            #"<base href="https://www.example.org/"><img src="a.jpg"><img src="{I}/b.jpg{V}">"#),
    ]

    static let all = images + untouchedImages + sourceSets + links + styles + untouchedContexts + recovery + bases

    @Test func theTableHasSixtyRowsOrMore() {
        #expect(Self.all.count >= 60)
        #expect(Set(Self.all.map(\.name)).count == Self.all.count, "row names are unique")
    }

    @Test(arguments: all)
    func rewrites(_ row: Row) {
        let input = Array(Self.expand(row.input).utf8)
        let expected = Self.expand(row.expected ?? row.input)
        let rewriter = HTMLFixture.htmlRewriter()
        let whole = rewriter.rewrite(input)
        #expect(String(decoding: whole, as: UTF8.self) == expected)
        let (byteAtATime, _) = HTMLFixture.rewrite(input, chunk: 1, with: rewriter)
        #expect(byteAtATime == whole, "one byte at a time")
    }
}
