import Foundation
import TestTraits
import Testing
import WebPBridge

/// Where a browser's tokenizer and tree builder see markup, and where they
/// see text (issue 26, finding 6 and the HTML part of finding 10): the
/// script data escaped and double-escaped states, `<noscript>` as raw text
/// (scripting on, as in every browser), `<![CDATA[` only in SVG and
/// MathML, their `title`/`style`/`plaintext` as markup, `<image>` as `img`.
@Suite(.timeLimit(.suiteBound)) struct TokenizerStateTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        /// `nil`: the output is the input.
        var expected: String?
        var testDescription: String { name }

        init(_ name: String, _ input: String, _ expected: String? = nil) {
            self.name = name
            self.input = input
            self.expected = expected
        }
    }

    static let image = "http://img.example.com/a.jpg"
    static let variant = image + HTMLFixture.suffix

    static let rows: [Row] = [
        Row(
            "double-escaped script keeps the img as text (finding 6)",
            "<script><!--<script></script><img src=\"{A}\">--></script>"),
        Row(
            "after a double-escaped script", "<script><!--<script></script><img src=\"{A}\">--></script><img src={A}>",
            "<script><!--<script></script><img src=\"{A}\">--></script><img src={V}>"),
        Row(
            "escaped script ends at </script>", "<script><!--</script><img src={A}>",
            "<script><!--</script><img src={V}>"),
        Row(
            "--> leaves the double escape", "<script><!--<script>--></script><img src={A}>",
            "<script><!--<script>--></script><img src={V}>"),
        Row(
            "<!--<scripts> is not a double escape", "<script><!--<scripts></script><img src={A}>",
            "<script><!--<scripts></script><img src={V}>"),
        Row("double escape in upper case", "<script><!--<SCRIPT></SCRIPT ><img src={A}>--></script>"),
        Row("--!> does not end a script's escape", "<script><!--<script>--!></script><img src={A}>"),
        Row("noscript is raw text", "<noscript><img src={A}></noscript>"),
        Row("after noscript", "<noscript>x</noscript><img src={A}>", "<noscript>x</noscript><img src={V}>"),
        Row(
            "CDATA in HTML content is a bogus comment to the first >", "<![CDATA[ a > b <img src={A}> ]]>",
            "<![CDATA[ a > b <img src={V}> ]]>"),
        Row("CDATA in SVG is a section", "<svg><![CDATA[ > <img src={A}> ]]></svg>"),
        Row("CDATA in MathML is a section", "<math><![CDATA[ > <img src={A}> ]]></math>"),
        Row(
            "SVG title is markup", "<svg><title><img src={A}></title></svg>",
            "<svg><title><img src={V}></title></svg>"),
        Row(
            "SVG style is markup", "<svg><style><img src={A}></style></svg>",
            "<svg><style><img src={V}></style></svg>"),
        Row("MathML plaintext is markup", "<math><plaintext><img src={A}>", "<math><plaintext><img src={V}>"),
        Row(
            "SVG script is markup", "<svg><script><img src={A}></script></svg>",
            "<svg><script><img src={V}></script></svg>"),
        Row("title after svg is RCDATA", "<svg></svg><title><img src={A}></title>"),
        Row("title after a self-closing svg is RCDATA", "<svg/><title><img src={A}></title>"),
        Row(
            "HTML title in foreignObject is RCDATA",
            "<svg><foreignObject><title><img src={A}></title></foreignObject></svg>"),
        Row("HTML style in desc is raw text", "<svg><desc><style><img src={A}></style></desc></svg>"),
        Row("MathML mi is a text integration point", "<math><mi><textarea><img src={A}></textarea></mi></math>"),
        Row(
            "annotation-xml as text/html is an HTML integration point",
            "<math><annotation-xml encoding=\"text/html\"><xmp><img src={A}></xmp></annotation-xml></math>"),
        Row(
            "a breakout tag leaves SVG", "<svg><p><title><img src={A}></title>"),
        Row(
            "nested svg elements close in order", "<svg><g><svg></svg></g><title><img src={A}></title></svg>",
            "<svg><g><svg></svg></g><title><img src={V}></title></svg>"),
        Row("<image> is an img", "<image src={A}>", "<image src={V}>"),
        Row("<IMAGE> is an img", "<IMAGE SRC={A}>", "<IMAGE SRC={V}>"),
        Row("SVG <image> is not an img", "<svg><image src={A}></svg>"),
        Row("SVG <source> is not HTML", "<svg><source srcset={A}></svg>"),
    ]

    static func expand(_ text: String) -> String {
        text.replacingOccurrences(of: "{A}", with: image).replacingOccurrences(of: "{V}", with: variant)
    }

    @Test(arguments: rows)
    func readsAsABrowserDoes(_ row: Row) {
        let input = Array(Self.expand(row.input).utf8)
        let expected = Self.expand(row.expected ?? row.input)
        let rewriter = HTMLFixture.htmlRewriter()
        let whole = rewriter.rewrite(input)
        #expect(String(decoding: whole, as: UTF8.self) == expected)
        let (byteAtATime, _) = HTMLFixture.rewrite(input, chunk: 1, with: rewriter)
        #expect(byteAtATime == whole, "one byte at a time")
    }
}
