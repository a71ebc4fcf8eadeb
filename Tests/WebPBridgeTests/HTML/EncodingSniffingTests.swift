import Foundation
import TestTraits
import Testing
import WebPBridge

/// Pages in encodings that are not ASCII-compatible pass through untouched
/// (issue 26, finding 7): bytes that spell `<img src=…>` in ASCII are not
/// markup in UTF-16 or ISO-2022-JP. The encoding is sniffed as the HTML
/// standard does: byte order mark, transport charset, `<meta>` prescan.
@Suite(.timeLimit(.suiteBound)) struct EncodingSniffingTests {
    static let image = "<img src=\"http://img.example.com/a.jpg\">"

    /// A UTF-16LE page with a byte order mark, with ASCII bytes that spell an `img` tag.
    static let utf16LEWithBOM: [UInt8] =
        [0xFF, 0xFE] + Array("<p>hi</p>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        + Array(image.utf8) + [0x00]
    /// A page served `charset=utf-16`: no BOM, UTF-16LE text, ASCII bytes that spell an `img` tag.
    static let utf16NoBOM: [UInt8] =
        Array("<p>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + Array((image + " ").utf8)
    /// An ISO-2022-JP page declared by `<meta charset>`: in JIS X 0208 after `ESC $ B`, the
    /// two-byte characters are made of bytes 0x21-0x7E, here the bytes of an `img` tag.
    static let iso2022JP: [UInt8] =
        Array("<meta charset=\"iso-2022-jp\"><p>".utf8) + [0x1B, 0x24, 0x42]
        + Array("<img src=\"http://img.example.com/a.jpg\"".utf8)
        + [0x1B, 0x28, 0x42] + Array("</p>".utf8)

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var page: [UInt8]
        var charset: String?
        var testDescription: String { name }
    }

    static let untouched: [Case] = [
        Case(name: "UTF-16LE with a BOM", page: utf16LEWithBOM),
        Case(name: "UTF-16LE with a BOM, served charset=utf-8 (the BOM wins)", page: utf16LEWithBOM, charset: "utf-8"),
        Case(name: "served charset=utf-16", page: utf16NoBOM, charset: "utf-16"),
        Case(name: "served charset=\"UTF-16BE\"", page: utf16NoBOM, charset: " UTF-16BE "),
        Case(name: "ISO-2022-JP by <meta charset>", page: iso2022JP),
        Case(name: "ISO-2022-JP served", page: iso2022JP, charset: "csISO2022JP"),
        Case(
            name: "ISO-2022-JP by <meta http-equiv content>",
            page: Array("<meta http-equiv=Content-Type content='text/html; charset=ISO-2022-JP'>".utf8)
                + iso2022JP.dropFirst(28)),
        Case(name: "ISO-2022-KR is the replacement encoding", page: Array(("<meta charset=iso-2022-kr>" + image).utf8)),
    ]

    @Test(arguments: untouched)
    func passesUntouched(_ page: Case) {
        let rewriter = HTMLFixture.htmlRewriter(charset: page.charset)
        for chunk in [1, 7, 4096] {
            let (output, count) = HTMLFixture.rewrite(page.page, chunk: chunk, with: rewriter)
            #expect(output == page.page, "chunks of \(chunk)")
            #expect(count == 0)
        }
        var stream = rewriter.makeStream()
        _ = stream.rewrite(page.page)
        _ = stream.finish()
        #expect(stream.passesThroughUntouched)
        #expect(stream.encoding?.isASCIICompatible == false)
    }

    static let rewritten: [Case] = [
        Case(name: "no declaration", page: Array(image.utf8)),
        Case(name: "UTF-8 BOM", page: [0xEF, 0xBB, 0xBF] + Array(image.utf8)),
        Case(name: "served charset=ISO-8859-1", page: Array(image.utf8), charset: "ISO-8859-1"),
        Case(name: "served charset=gbk", page: Array(image.utf8), charset: "gbk"),
        Case(name: "served an unknown charset", page: Array(image.utf8), charset: "x-nonsense"),
        Case(name: "<meta charset=utf-16> means UTF-8", page: Array(("<meta charset=utf-16>" + image).utf8)),
        Case(name: "<meta charset=windows-1251>", page: Array(("<meta charset=windows-1251>" + image).utf8)),
        Case(
            name: "served utf-8 over <meta charset=iso-2022-jp>",
            page: Array(("<meta charset=iso-2022-jp>" + image).utf8), charset: "utf-8"),
        Case(
            name: "a <meta> in a comment does not count",
            page: Array(("<!-- <meta charset=iso-2022-jp> -->" + image).utf8)),
        Case(
            name: "a <meta> after the first 1,024 bytes does not count",
            page: Array((String(repeating: " ", count: 1_024) + "<meta charset=iso-2022-jp>" + image).utf8)),
        Case(
            name: "http-equiv content without the pragma does not count",
            page: Array(("<meta content='text/html; charset=iso-2022-jp'>" + image).utf8)),
        Case(
            name: "a <meta charset> inside another tag's value does not count",
            page: Array(("<div title='<meta charset=iso-2022-jp>'>" + image).utf8)),
    ]

    @Test(arguments: rewritten)
    func rewritesASCIICompatiblePages(_ page: Case) {
        let rewriter = HTMLFixture.htmlRewriter(charset: page.charset)
        let (whole, count) = HTMLFixture.rewrite(page.page, chunk: 1 << 16, with: rewriter)
        #expect(count == 1)
        let (byteAtATime, _) = HTMLFixture.rewrite(page.page, chunk: 1, with: rewriter)
        #expect(byteAtATime == whole)
    }

    @Test func theContentTypeCharsetIsReadAsAParameter() {
        #expect(HTMLEncodingSniffer.charset(ofContentType: "text/html; charset=UTF-16") == "UTF-16")
        #expect(HTMLEncodingSniffer.charset(ofContentType: "text/html;Charset=\"utf-16le\"") == "utf-16le")
        #expect(HTMLEncodingSniffer.charset(ofContentType: "text/html; q=\"a;b\"") == nil)
        #expect(HTMLEncodingSniffer.charset(ofContentType: "text/html") == nil)
        #expect(HTMLEncodingSniffer.charset(ofContentType: nil) == nil)
    }

    @Test func aStringIsUTF8WhateverItsMetaSays() {
        let page = "<meta charset=iso-2022-jp>" + Self.image
        #expect(HTMLFixture.htmlRewriter().rewrite(page).contains(HTMLFixture.suffix))
    }

    @Test func sniffingHoldsAtMost1024Bytes() {
        var stream = HTMLFixture.htmlRewriter().makeStream()
        var output: [UInt8] = []
        for _ in 0..<1_023 { stream.rewrite([UInt8(ascii: "x")], appendingTo: &output) }
        #expect(stream.heldByteCount == 1_023)
        #expect(output.isEmpty)
        stream.rewrite([UInt8(ascii: "x")], appendingTo: &output)
        #expect(stream.heldByteCount == 0)
        #expect(output.count == 1_024)
    }
}
