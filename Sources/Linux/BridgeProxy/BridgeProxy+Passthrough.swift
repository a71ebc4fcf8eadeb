import Foundation
import HTTPServer
import WebPBridge

extension BridgeProxy {
    /// Forwards `request` to `url` — not the image path: the core relays the
    /// originals it hands over itself — and returns the upstream's answer
    /// unchanged — status, body, end-to-end headers — without hop-by-hop
    /// headers, with `Via`, never following redirects (loaders do not follow
    /// them: clients see them, and reverse-mode `Location`s that point at the
    /// upstream are moved onto the bridge).
    ///
    /// - Parameters:
    ///   - vary: Request fields to add to `Vary`, when other clients get a
    ///     transformed body for the same URL.
    ///   - asksIdentity: Ask the upstream for an uncompressed body (a page
    ///     that `--rewrite-html` may rewrite; see ``PageRewriting/asksForAPage(_:)``).
    func passThrough(
        _ request: HTTPRequest, url: URL, vary: String? = nil, asksIdentity: Bool = false,
        upstreamAccept: String? = nil
    ) async -> Reply {
        var fields = HopByHopFields.requestFieldsToForward(request.headers)
        if asksIdentity { fields["Accept-Encoding"] = "identity" }
        // The core's decision: a client it transcodes for is not offered WebP or AVIF by a negotiating upstream.
        if let upstreamAccept { fields["Accept"] = upstreamAccept }
        fields["Via"] = via.appended(
            to: request.headers.values(for: "Via").joined(separator: ", ").nilIfEmpty,
            protocolVersion: request.version)
        let sendsBody = !request.body.isEmpty || [.post, .put, .patch].contains(request.method)
        let upstreamRequest = DataRequest(
            url: url, method: request.method.rawValue, headers: fields, timeout: configuration.limits.upstreamTimeout,
            maxBodyBytes: configuration.limits.maxPassthroughBodyBytes,
            responseFieldLimits: configuration.limits.upstreamFieldLimits, body: sendsBody ? request.body : nil)
        let loaded: DataResponse
        do {
            loaded = try await configuration.passthroughLoader.load(upstreamRequest)
        } catch {
            return upstreamFailure(error, url: url.absoluteString)
        }
        recordUpstreamBytes(loaded.body.count, path: .passthrough)
        guard (100...599).contains(loaded.statusCode), !(100...199).contains(loaded.statusCode) else {
            log("upstream sent an invalid status \(loaded.statusCode): \(url.absoluteString)")
            return Reply(
                response: .text(.badGateway, "the upstream sent an invalid status"),
                outcome: .error, upstreamBytes: loaded.body.count)
        }

        var headers = HopByHopFields.responseFieldsToForward(loaded.headers)
        if let redirects, let location = headers["Location"] {
            headers["Location"] = redirects.rewrite(location, bridgeHost: request.headers["Host"])
        }
        if let vary { headers["Vary"] = VaryHeader.merging(vary, into: headers.combinedValue(for: "Vary")) }

        let body: HTTPResponse.Body
        if request.method == .head {
            // The server sends a HEAD response's Content-Length from the body it
            // would send; declare the upstream's length without holding the bytes
            // (zero pages are not touched: the server never reads them for HEAD).
            let declared = loaded.headers["Content-Length"].flatMap(Int.init) ?? 0
            body =
                (1...configuration.limits.maxPassthroughBodyBytes).contains(declared)
                ? .data(Data(count: declared)) : .empty
        } else {
            body = loaded.body.isEmpty ? .empty : .data(loaded.body)
        }
        return Reply(
            response: HTTPResponse(status: HTTPStatus(code: loaded.statusCode), headers: headers, body: body),
            outcome: .passthrough, upstreamBytes: loaded.body.count)
    }
}
