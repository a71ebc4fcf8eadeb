import Foundation
import TestTraits
import Testing
import WebPBridge

/// Generated documents (seeded): the only change the rewriter makes is
/// the variant suffix after URLs it may rewrite, so removing every suffix
/// gives the input back byte for byte; URLs in places it must not touch
/// never get one; and any chunking gives the same output.
@Suite(.timeLimit(.suiteBound)) struct UntouchedBytesPropertyTests {
    static let image = "https://img.example.com/"

    /// One piece of a document, and the URLs in it that must or must not be rewritten.
    struct Piece {
        var text: String
        var rewritten: [String] = []
        var untouched: [String] = []
    }

    static func piece(_ random: inout SeededGenerator, _ serial: Int) -> Piece {
        let yes = "\(image)yes-\(serial).jpg"
        let no = "\(image)no-\(serial).jpg"
        let quote = random.pick(["\"", "'", ""])
        let img = random.pick(["img", "IMG", "Img"])
        let src = random.pick(["src", "SRC"])
        let space = random.pick([" ", "  ", "\n", "\t"])
        switch random.below(16) {
        case 0: return Piece(text: "<\(img)\(space)\(src)=\(quote)\(yes)\(quote) alt=\"x &amp; y\">", rewritten: [yes])
        case 1:
            let double = "\(image)yes-\(serial)@2x.png"
            return Piece(text: "<img srcset=\"\(yes) 1x,\(space)\(double) 2x\">", rewritten: [yes, double])
        case 2:
            let cssQuote = random.pick(["'", ""])
            return Piece(
                text: "<div style=\"color:red;background:url(\(cssQuote)\(yes)\(cssQuote))\">", rewritten: [yes])
        case 3: return Piece(text: "<style>\n.a\(serial){background:url(\(yes))}</style>", rewritten: [yes])
        case 4: return Piece(text: "<script>var a = '<img src=\"\(no)\">';</script>", untouched: [no])
        case 5: return Piece(text: "<!-- <img src=\(no)> -->", untouched: [no])
        case 6: return Piece(text: "<textarea><img src=\(no)></textarea>", untouched: [no])
        case 7: return Piece(text: "<meta property=og:image content=\"\(no)\">", untouched: [no])
        case 8: return Piece(text: "<a href=\"\(no)\">x</a>", untouched: [no])
        case 9: return Piece(text: "<img src=\"data:image/png;base64,\(no)\">", untouched: [no])
        case 10: return Piece(text: "<style>/* url(\(no)) */</style>", untouched: [no])
        case 11: return Piece(text: "<link rel=preload as=image href=\(yes)>", rewritten: [yes])
        case 12: return Piece(text: "<![CDATA[<img src=\(no)>]]>", untouched: [no])
        default:
            let words = ["news", "&amp;", "&lt;", "図", "a < b", "x > y", "\"q\"", "'s", "\n", "  ", "=", "/"]
            return Piece(text: (0..<random.below(8)).map { _ in random.pick(words) }.joined(separator: " "))
        }
    }

    static func rewriteInRandomChunks(_ document: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var stream = HTMLFixture.htmlRewriter().makeStream()
        var output: [UInt8] = []
        var start = 0
        while start < document.count {
            let end = min(document.count, start + 1 + random.below(40))
            stream.rewrite(document[start..<end], appendingTo: &output)
            start = end
        }
        return output + stream.finish()
    }

    @Test(arguments: 0..<40)
    func onlyRewrittenURLsChange(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        var pieces: [Piece] = []
        for serial in 0..<(20 + random.below(60)) { pieces.append(Self.piece(&random, serial)) }
        let input = pieces.map(\.text).joined()
        let whole = HTMLFixture.htmlRewriter().rewrite(input)
        let suffix = HTMLFixture.suffix
        #expect(whole.replacingOccurrences(of: suffix, with: "") == input, "seed \(seed)")
        for url in pieces.flatMap(\.rewritten) {
            #expect(whole.contains(url + suffix), "seed \(seed): \(url)")
        }
        for url in pieces.flatMap(\.untouched) {
            #expect(!whole.contains(url + suffix), "seed \(seed): \(url)")
        }
        let chunked = Self.rewriteInRandomChunks(Array(input.utf8), &random)
        #expect(chunked == Array(whole.utf8), "seed \(seed): chunked")
    }

    /// Random bytes around markup: whatever is rewritten, nothing else changes.
    @Test(arguments: 0..<40)
    func hostileBytesChangeNothingButURLs(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &+ 1_000_003)
        var input: [UInt8] = []
        let tokens = [
            "<", ">", "\"", "'", "=", "/", "-", "!", "[", "]", "&", "#", ";", "(", ")", " ", "\n", "url(",
            "<img ", "src=", "<script>", "</script>", "<style>", "</style>", "<!--", "-->", "<![CDATA[", "]]>",
            "\(Self.image)a.jpg", "/b.png", "srcset=", "style=", "<base href=", "&amp;", "&#x26;", "<plaintext>",
        ]
        for _ in 0..<(200 + random.below(800)) {
            if random.chance(30) {
                input.append(UInt8(truncatingIfNeeded: random.next()))
            } else {
                input += Array(random.pick(tokens).utf8)
            }
        }
        let whole = HTMLFixture.htmlRewriter().rewrite(input)
        let removed = String(decoding: whole, as: UTF8.self).replacingOccurrences(of: HTMLFixture.suffix, with: "")
        // The suffix has only ASCII, so removing it from decoded text keeps the other bytes' decoding.
        #expect(removed == String(decoding: input, as: UTF8.self) || removesToInput(whole, input))
        #expect(Self.rewriteInRandomChunks(input, &random) == whole, "seed \(seed): chunked")
    }

    /// Byte-exact check: `output` is `input` with the suffix inserted (and `&` re-encoded
    /// only inside rewritten URLs, which these documents never need).
    func removesToInput(_ output: [UInt8], _ input: [UInt8]) -> Bool {
        let suffix = Array(HTMLFixture.suffix.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < output.count {
            if output[index...].starts(with: suffix) {
                index += suffix.count
            } else {
                result.append(output[index])
                index += 1
            }
        }
        return result == input
    }
}
