import Foundation
import HTTPServer
import WebPBridge

extension BridgeProxy {
    /// The diagnostic field of every `text/html` answer under
    /// ``Configuration/rewritesHTML``: `rewritten N` (N image URLs now name
    /// their variants) or `untouched REASON` (see ``PageRewriting/Untouched``),
    /// as `X-WebPBridge-Delivery` says how the image path answered.
    public static let htmlDiagnosticHeader = "X-WebPBridge-HTML"

    /// A passthrough answer under ``Configuration/rewritesHTML``: a
    /// `text/html` one gets the policy's `Vary` (whether this client's copy
    /// names the variants depends on those fields), and its body the
    /// variants when the answer may be rewritten and
    /// ``ImageBridge/rewritesPage(_:)`` says the client gets variants.
    /// A `HEAD` that qualifies is followed by a `GET`, so that it carries
    /// the rewritten page's length as a `GET` would. The rewrite runs on
    /// ``RewrittenPages``' bounded queue, or comes from its kept results;
    /// a full queue gives 503 with `Retry-After`.
    /// - Parameters:
    ///   - reply: The passthrough's answer, unchanged so far.
    ///   - request: The client's request.
    ///   - forClient: What ``ImageBridge/rewritesPage(_:)`` said of the request.
    ///   - asksIdentity: Whether the page was asked for uncompressed (so is
    ///     the `GET` that follows a `HEAD`).
    ///   - url: The upstream URL the page was fetched from: relative URLs
    ///     resolve against it.
    func rewritingPage(
        _ reply: Reply, for request: HTTPRequest, forClient: Bool, asksIdentity: Bool, url: URL
    ) async -> Reply {
        guard let rewrittenPages, reply.outcome == .passthrough,
            PageRewriting.isHTML(reply.response.headers["Content-Type"])
        else { return reply }
        var reply = reply
        reply.response.headers["Vary"] = VaryHeader.merging(imageBridge.vary, into: reply.response.headers["Vary"])
        if let refusal = PageRewriting.refusal(status: reply.response.status, headers: reply.response.headers) {
            return untouched(reply, refusal)
        }
        guard forClient else { return untouched(reply, .client) }

        var source = reply
        if request.method == .head {
            var get = request
            get.method = .get
            source = await passThrough(get, url: url, asksIdentity: asksIdentity)
            reply.upstreamBytes = (reply.upstreamBytes ?? 0) + (source.upstreamBytes ?? 0)
            guard source.outcome == .passthrough, PageRewriting.isHTML(source.response.headers["Content-Type"]),
                PageRewriting.refusal(status: source.response.status, headers: source.response.headers) == nil
            else { return untouched(reply, .changed) }
        }
        let page = source.response.bodyBytes
        let contentType = source.response.headers["Content-Type"]
        // A UTF-16 or ISO-2022-JP page: bytes that spell a tag in ASCII are not one.
        if PageRewriting.isNotASCIICompatible(page, contentType: contentType) { return untouched(reply, .charset) }
        let body: Data
        let count: Int
        switch await rewrittenPages.rewrite(page, pageURL: url, contentType: contentType) {
        case .rewritten(let rewritten, let urls): (body, count) = (rewritten, urls)
        case .tooLarge: return untouched(reply, .size)
        case .busy:
            return Reply(
                response: .text(
                    .serviceUnavailable, "the bridge is busy rewriting pages; retry shortly",
                    headers: ["Retry-After": String(configuration.limits.pageRewriteRetryAfterSeconds)]),
                outcome: .overloaded, upstreamBytes: reply.upstreamBytes)
        }
        for name in PageRewriting.staleFields { reply.response.headers[name] = nil }
        reply.response.headers[Self.htmlDiagnosticHeader] = "rewritten \(count)"
        // Its images are the origin's to size: ask the browser for the hints (docs/proxy.md: Client hints).
        reply.response.headers["Accept-CH"] = ClientHints.acceptCH(
            merging: reply.response.headers.combinedValue(for: "Accept-CH"))
        // A HEAD declares the length without holding the bytes (see passThrough).
        reply.response.body = request.method == .head ? .data(Data(count: body.count)) : .data(body)
        recordRewrittenPage(urls: count)
        return reply
    }

    private func untouched(_ reply: Reply, _ reason: PageRewriting.Untouched) -> Reply {
        var reply = reply
        reply.response.headers[Self.htmlDiagnosticHeader] = "untouched \(reason.rawValue)"
        recordUntouchedPage(reason)
        return reply
    }
}

extension HTTPResponse {
    /// The body held in memory (a passthrough's always is), or no bytes.
    fileprivate var bodyBytes: Data {
        switch body {
        case .data(let data): data
        case .bytes(let bytes): bytes.data
        case .empty, .file: Data()
        }
    }
}
