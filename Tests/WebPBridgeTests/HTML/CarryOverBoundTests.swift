import Foundation
import TestTraits
import Testing
import WebPBridge

/// What a stream holds back is bounded whatever the input: a tag longer
/// than the bound, or a CSS `url(` that never closes, passes through as it
/// arrives, untouched, and the stream carries on correctly after it.
@Suite(.timeLimit(.suiteBound)) struct CarryOverBoundTests {
    static let bound = 4_096

    /// Feeds `document` in 64 KiB chunks, checking the held bytes after each one.
    static func feed(_ document: [UInt8], maxTagBytes: Int = bound) -> (output: [UInt8], maxHeld: Int) {
        var stream = HTMLFixture.htmlRewriter(maxTagBytes: maxTagBytes).makeStream()
        var output: [UInt8] = []
        var maxHeld = 0
        var start = 0
        while start < document.count {
            let end = min(start + (64 << 10), document.count)
            stream.rewrite(document[start..<end], appendingTo: &output)
            maxHeld = max(maxHeld, stream.heldByteCount)
            start = end
        }
        output += stream.finish()
        return (output, maxHeld)
    }

    @Test func aHugeTagFloodIsPassedOnUntouchedNotBuffered() {
        // 16 MiB of attributes in tags that never end, and one that never ends at all.
        var flood = Array("<img src=/a.jpg ".utf8)
        let attribute = Array("data-x=\"yyyyyyyyyyyyyyyyyyyyyyyyyyyy\" ".utf8)
        while flood.count < 16 << 20 { flood += attribute }
        let document = flood + Array("><img src=/b.jpg>".utf8) + flood
        let (output, maxHeld) = Self.feed(document)
        #expect(maxHeld <= Self.bound)
        let expected = flood + Array("><img src=https://img.example.com/b.jpg\(HTMLFixture.suffix)>".utf8) + flood
        #expect(output == expected)
    }

    @Test func aQuotedValueLongerThanTheBoundKeepsTheTagStateRight() {
        // A quoted `>` far past the bound must not end the tag.
        let long = String(repeating: "z", count: 3 * Self.bound)
        let document = Array(#"<img alt="\#(long) > still the value" src="/a.jpg"><img src="/b.jpg">"#.utf8)
        let (output, _) = Self.feed(document)
        let expected =
            #"<img alt="\#(long) > still the value" src="/a.jpg"><img src="https://img.example.com/b.jpg"#
            + HTMLFixture.suffix + #"">"#
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test func aTagJustUnderTheBoundIsRewritten() {
        let prefix = #"<img src="/a.jpg" alt=""#
        let padding = String(repeating: "p", count: Self.bound - prefix.utf8.count - 3)
        let document = Array((prefix + padding + "\">").utf8)
        #expect(document.count < Self.bound)
        let (output, _) = Self.feed(document)
        #expect(String(decoding: output, as: UTF8.self).contains("/a.jpg" + HTMLFixture.suffix))
    }

    @Test func anUnclosedCSSURLFloodIsBoundedToo() {
        let flood = Array("<style>.a{background:url(".utf8) + [UInt8](repeating: UInt8(ascii: "q"), count: 4 << 20)
        let document = flood + Array(")}</style><img src=/b.jpg>".utf8)
        let (output, maxHeld) = Self.feed(document)
        #expect(maxHeld <= 8_192 + 1)
        #expect(output == flood + Array(")}</style><img src=https://img.example.com/b.jpg\(HTMLFixture.suffix)>".utf8))
    }

    @Test func aScriptFloodHoldsNothing() {
        let body = [UInt8](repeating: UInt8(ascii: "<"), count: 8 << 20)
        let document = Array("<script>".utf8) + body + Array("</script><img src=/b.jpg>".utf8)
        let (output, maxHeld) = Self.feed(document)
        #expect(maxHeld == 0)
        #expect(output.count == document.count + HTMLFixture.suffix.utf8.count + "https://img.example.com".utf8.count)
    }
}
