import Foundation
import WebPBridge

/// The rules every HTML test uses: Qiniu's dialect for `img.example.com`
/// at 750 pixels, and a page at `https://img.example.com/news/`.
enum HTMLFixture {
    /// What Qiniu appends to `https://img.example.com/a.jpg`.
    static let suffix = "?imageView2/2/w/750/format/webp/ignore-error/1"

    static let rewriter: Rewriter = {
        let configuration = try! RewritePreset.configuration(named: "qiniu", host: "img.example.com", width: 750)
        return try! Rewriter(configuration: configuration)
    }()

    static let base = URL(string: "https://img.example.com/news/")!

    static func htmlRewriter(
        base: URL? = HTMLFixture.base, scheme: WebViewScheme? = nil, localPrefix: String? = nil,
        maxTagBytes: Int = 64 << 10, charset: String? = nil
    ) -> HTMLRewriter {
        HTMLRewriter(
            configuration: .init(
                rewriter: rewriter, baseURL: base, scheme: scheme, localPrefix: localPrefix, maxTagBytes: maxTagBytes,
                charset: charset))
    }

    /// `document` rewritten in chunks of `size` bytes, with the count of rewritten URLs.
    static func rewrite(_ document: [UInt8], chunk size: Int, with rewriter: HTMLRewriter) -> ([UInt8], Int) {
        var stream = rewriter.makeStream()
        var output: [UInt8] = []
        output.reserveCapacity(document.count + document.count / 4)
        var start = 0
        while start < document.count {
            let end = min(start + size, document.count)
            stream.rewrite(document[start..<end], appendingTo: &output)
            start = end
        }
        output += stream.finish()
        return (output, stream.rewrittenURLCount)
    }
}
