public import Foundation
import WebPBridge

/// `fuzz-html`: a page through the streaming HTML rewriter.
///
/// The input's first byte picks the transport charset (none, `utf-8`,
/// `utf-16`) and the chunk size; the rest is the page. Checked: any
/// chunking gives the same bytes as the whole page at once; what the
/// stream holds stays within its documented bound; rewriting the output
/// again changes nothing (a variant's URL rewrites to itself); a page in an
/// encoding that is not ASCII-compatible comes out as it went in.
public enum HTMLFuzzEntry {
    /// The rule's host, as in the HTML tests: seeds name it.
    public static let host = "img.example.com"

    private static let rewriter: Rewriter? = {
        guard let configuration = try? RewritePreset.configuration(named: "qiniu", host: host, width: 750) else {
            return nil
        }
        return try? Rewriter(configuration: configuration)
    }()

    private static let maxTagBytes = 1_024

    public static func run(_ data: Data) {
        guard let rewriter, let control = data.first else { return }
        let page = [UInt8](data.dropFirst())
        let charset: String? = [nil, "utf-8", "utf-16"][Int(control % 3)]
        let chunk = 1 + Int(control / 3) % 17
        let html = HTMLRewriter(
            configuration: .init(
                rewriter: rewriter, baseURL: URL(string: "https://\(host)/news/"), maxTagBytes: maxTagBytes,
                charset: charset))

        let whole = html.rewrite(page)
        var stream = html.makeStream()
        var chunked: [UInt8] = []
        var start = 0
        let bound = maxTagBytes + 8_192 + 1 + 1_024
        while start < page.count {
            let end = min(start + chunk, page.count)
            stream.rewrite(page[start..<end], appendingTo: &chunked)
            FuzzExpectation.require(
                stream.heldByteCount <= bound, "holds \(stream.heldByteCount) bytes, more than \(bound)")
            start = end
        }
        chunked += stream.finish()
        FuzzExpectation.require(chunked == whole, "chunks of \(chunk) give other bytes than the whole page")
        if stream.passesThroughUntouched {
            FuzzExpectation.require(whole == page, "a page that is not ASCII-compatible was changed")
        }
        let again = html.rewrite(whole)
        FuzzExpectation.require(again == whole, "rewriting the output again changed it")
    }
}
