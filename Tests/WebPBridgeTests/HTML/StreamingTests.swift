import Foundation
import TestTraits
import Testing
import WebPBridge

/// The stream on a large page: every chunking gives the same bytes.
@Suite(.timeLimit(.suiteBound)) struct StreamingTests {
    /// One article card of a news front page, with every construct the
    /// rewriter reads or must leave alone.
    static func card(_ index: Int) -> String {
        """
        <article class="card" data-id="\(index)">
          <!-- card \(index): <img src="/never.jpg"> -->
          <picture>
            <source media="(min-width: 800px)" srcset="/photos/\(index)-wide.jpg 1x, /photos/\(index)-wide@2x.jpg 2x">
            <img src="/photos/\(index).jpg" srcset='/photos/\(index)-480.jpg 480w, /photos/\(index)-800.jpg 800w'
                 sizes="(max-width: 600px) 480px, 800px" alt="Photo &amp; caption \(index)" loading=lazy>
          </picture>
          <div class="thumb" style="background-image: url('/thumbs/\(index).png')"></div>
          <h2>Headline \(index) &mdash; Tom &amp; Jerry</h2>
          <p>Text with <a href="/article/\(index).html">a link</a> and an image from elsewhere:
             <img src="https://www.example.org/\(index).jpg" alt="foreign"></p>
          <script>window.cards = (window.cards || 0) + 1; // "<img src='/never.jpg'>"</script>
        </article>

        """
    }

    /// About 5 MB: a head with a preload and a stylesheet, then cards.
    static let page: (bytes: [UInt8], rewritable: Int) = {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Front page</title>
            <link rel="preload" as="image" href="/photos/lead.jpg"
                  imagesrcset="/photos/lead.jpg 1x, /photos/lead@2x.jpg 2x">
            <meta property="og:image" content="https://img.example.com/photos/lead.jpg">
            <style>.masthead { background: url(/img/masthead.png) no-repeat; } /* url(/never.jpg) */</style>
            </head><body>

            """
        var cards = 0
        while html.utf8.count < 5_000_000 {
            html += card(cards)
            cards += 1
        }
        html += "</body></html>\n"
        // Per card: two in <source>, one src, two in srcset, one in style.
        return (Array(html.utf8), 3 + 1 + cards * 6)
    }()

    @Test func fiveMegabytesInChunksOfOneSevenAnd64KiBGiveTheSameBytes() {
        let rewriter = HTMLFixture.htmlRewriter()
        let (whole, count) = HTMLFixture.rewrite(Self.page.bytes, chunk: Self.page.bytes.count, with: rewriter)
        #expect(Self.page.bytes.count >= 5_000_000)
        #expect(count == Self.page.rewritable)
        for size in [1, 7, 64 << 10] {
            let (chunked, chunkedCount) = HTMLFixture.rewrite(Self.page.bytes, chunk: size, with: rewriter)
            #expect(chunked == whole, "chunks of \(size) bytes")
            #expect(chunkedCount == count)
        }
        let text = String(decoding: whole, as: UTF8.self)
        #expect(!text.contains("never.jpg" + HTMLFixture.suffix))
        #expect(!text.contains("og:image\" content=\"https://img.example.com/photos/lead.jpg" + HTMLFixture.suffix))
        #expect(text.contains(#"<img src="https://img.example.com/photos/0.jpg\#(HTMLFixture.suffix)""#))
        // Every rewritten URL was root-relative: it gained the origin and the suffix, and nothing else changed size.
        let growth = "https://img.example.com".utf8.count + HTMLFixture.suffix.utf8.count
        #expect(whole.count == Self.page.bytes.count + count * growth)
    }
}
