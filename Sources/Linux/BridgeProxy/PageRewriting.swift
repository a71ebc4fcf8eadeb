import Foundation
import HTTPServer
import WebPBridge

/// `proxy --rewrite-html`'s decisions about one upstream answer, and the
/// rewrite itself: pure functions of the answer, the page's URL and the
/// bridge's rules. Whether the client gets variants at all is not decided
/// here but by ``ImageBridge/rewritesPage(_:)``.
///
/// The body is rewritten from the passthrough's buffer (bodies are held in
/// memory up to ``BridgeProxy/Configuration/Limits/maxPassthroughBodyBytes``
/// anyway), in 64 KiB chunks; a page whose rewrite would pass
/// ``outputBound(forInputBytes:)`` — three times the page plus 64 KiB, and
/// never above that same limit — is left untouched. A real page grows by a
/// few percent (a variant's query per image); one built of `srcset`
/// candidates to grow six-fold is stopped within its first chunks past the
/// bound, so it costs a fraction of its rewrite.
struct PageRewriting: Sendable {
    /// Why a `text/html` answer passed through as the upstream sent it.
    enum Untouched: String, Sendable, CaseIterable {
        /// Not a `200` (an error page, a `304`, a `206` range).
        case status
        /// A `Content-Encoding` other than `identity`: the bytes are not markup.
        case encoding
        /// The upstream's `Cache-Control: no-transform`.
        case noTransform = "no-transform"
        /// ``ImageBridge/rewritesPage(_:)`` says no: the policy gives this
        /// client's images no variants, the client said `no-transform`, or
        /// the method is not `GET` or `HEAD`.
        case client
        /// The rewritten page would pass ``PageRewriting/outputBound(forInputBytes:)``.
        case size
        /// A `HEAD` whose follow-up `GET` did not bring a page to rewrite.
        case changed
        /// The page's encoding is not ASCII-compatible (UTF-16, ISO-2022-JP…,
        /// by its byte order mark, `Content-Type` charset or `<meta charset>`):
        /// its bytes are not markup byte by byte.
        case charset
    }

    /// The rules (the bridge's rewriter).
    let rewriter: Rewriter
    /// In reverse mode, the upstream's `scheme://host:port/base` without
    /// credentials: a variant under it is written as the path after it
    /// (`/a.jpg?…`), which the bridge maps back onto the upstream, so the
    /// client fetches it through the bridge. `nil` in forward mode, where
    /// variants stay absolute and a browser asks the bridge for them as its
    /// proxy.
    let localPrefix: String?
    /// The largest rewritten page.
    let maxBodyBytes: Int

    /// The fields a rewritten page does not keep: they describe the
    /// upstream's bytes (`Content-Length` is never forwarded; the server
    /// computes it from the new body).
    static let staleFields = ["ETag", "Content-MD5", "Accept-Ranges"]

    /// Whether `contentType` is `text/html`, in any case, with any parameters.
    /// Whether `accept` asks for a page (names `text/html`, not only
    /// `*/*`): such a request, when its page would be rewritten for the
    /// client, asks the upstream for an uncompressed body. A compressed page
    /// is never rewritten (the bridge does not decompress), so without this
    /// a site that compresses its pages would never get them rewritten. It
    /// costs the page's compression between the upstream and the bridge — a
    /// page's few kilobytes, against its images' megabytes.
    static func asksForAPage(_ accept: String?) -> Bool {
        (AcceptHeader(accept).explicitQuality(of: "text/html") ?? 0) > 0
    }

    static func isHTML(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let essence = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return essence.caseInsensitiveCompare("text/html") == .orderedSame
    }

    /// Why an upstream `text/html` answer may not be rewritten for anyone,
    /// or `nil` when it may be: a `200`, no `Content-Encoding` but
    /// `identity`, no `no-transform` from the upstream.
    static func refusal(status: HTTPStatus, headers: HTTPFieldList) -> Untouched? {
        guard status == .ok else { return .status }
        let codings = headers.values(for: "Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard codings.allSatisfy({ $0.isEmpty || $0 == "identity" }) else { return .encoding }
        guard !CacheControl.containsNoTransform(headers.values(for: "Cache-Control")) else { return .noTransform }
        return nil
    }

    /// The largest rewrite of a page of `inputBytes`: three times the page
    /// plus 64 KiB, at most ``maxBodyBytes``.
    func outputBound(forInputBytes inputBytes: Int) -> Int {
        let (tripled, overflow) = inputBytes.multipliedReportingOverflow(by: 3)
        return overflow ? maxBodyBytes : min(maxBodyBytes, tripled + (64 << 10))
    }

    /// Whether a page with this body and `Content-Type` is in an encoding
    /// the rewriter cannot read byte by byte (sniffed as a browser does:
    /// byte order mark, `charset`, `<meta>` in the first 1,024 bytes).
    static func isNotASCIICompatible(_ body: Data, contentType: String?) -> Bool {
        let charset = HTMLEncodingSniffer.charset(ofContentType: contentType)
        return !HTMLEncodingSniffer.sniff(body.prefix(HTMLEncodingSniffer.prescanBytes), charset: charset)
            .isASCIICompatible
    }

    /// `body`, the page fetched from `pageURL`, with its image URLs named as
    /// variants, and how many were rewritten; `nil` when the result would be
    /// larger than ``outputBound(forInputBytes:)``.
    /// - Parameter contentType: The page's `Content-Type` (its `charset` counts).
    func rewrite(_ body: Data, pageURL: URL, contentType: String?) -> (body: Data, rewrittenURLs: Int)? {
        let configuration = HTMLRewriter.Configuration(
            rewriter: rewriter, baseURL: Self.withoutCredentials(pageURL), localPrefix: localPrefix,
            charset: HTMLEncodingSniffer.charset(ofContentType: contentType))
        var stream = HTMLRewriter(configuration: configuration).makeStream()
        let bound = outputBound(forInputBytes: body.count)
        var output: [UInt8] = []
        output.reserveCapacity(min(bound, body.count + body.count / 8))
        let chunkBytes = 64 << 10
        var start = body.startIndex
        while start < body.endIndex {
            let end = body.index(start, offsetBy: chunkBytes, limitedBy: body.endIndex) ?? body.endIndex
            stream.rewrite(body[start..<end], appendingTo: &output)
            guard output.count <= bound else { return nil }
            start = end
        }
        output += stream.finish()
        guard output.count <= bound else { return nil }
        return (Data(output), stream.rewrittenURLCount)
    }

    /// The reverse-mode prefix for `upstream` (see ``localPrefix``).
    static func localPrefix(forUpstream upstream: URL) -> String {
        ReverseUpstream(withoutCredentials(upstream)).prefix
    }

    /// `url` without user and password: relative URLs resolved against a
    /// base with credentials would carry them into the page.
    static func withoutCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }
}
