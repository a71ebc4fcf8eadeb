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
        // The body is charged to the answers' share as it arrives; past the share the transfer stops.
        let charge = heldAnswers.charge()
        let upstreamRequest = DataRequest(
            url: url, method: request.method.rawValue, headers: fields, timeout: configuration.limits.upstreamTimeout,
            maxBodyBytes: configuration.limits.maxPassthroughBodyBytes,
            responseFieldLimits: configuration.limits.upstreamFieldLimits, body: sendsBody ? request.body : nil,
            bodyAdmission: BodyAdmission { charge.add($0) })
        let loaded: DataResponse
        do {
            loaded = try await configuration.passthroughLoader.load(upstreamRequest)
        } catch {
            if charge.wasRefused { return answersOverBudget(url: url, received: nil) }
            return upstreamFailure(error, url: url.absoluteString)
        }
        // A loader that hands no pieces over is charged for the whole body here.
        guard charge.settle(total: loaded.body.count) else {
            return answersOverBudget(url: url, received: loaded.body.count)
        }
        recordUpstreamBytes(loaded.body.count, path: .passthrough)
        guard (100...599).contains(loaded.statusCode), !(100...199).contains(loaded.statusCode) else {
            log("upstream sent an invalid status \(loaded.statusCode): \(url.absoluteString)")
            return Reply(
                response: .text(.badGateway, "the upstream sent an invalid status"),
                outcome: .error, upstreamBytes: loaded.body.count)
        }

        var headers = HopByHopFields.responseFieldsToForward(loaded.headers)
        // A Location whose bytes are not UTF-8 is relayed as sent: read as text, its bytes would change.
        if let redirects, headers.fields(named: "Location").allSatisfy(\.isUTF8), let location = headers["Location"] {
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
            body = loaded.body.isEmpty ? .empty : .bytes(charge.body(loaded.body))
        }
        return Reply(
            response: HTTPResponse(status: HTTPStatus(code: loaded.statusCode), headers: headers, body: body),
            outcome: .passthrough, upstreamBytes: loaded.body.count)
    }

    /// The answer when passed-through answers fill their share: 503 with
    /// `Retry-After`, or, for an answer larger than the whole share, a 503
    /// that says so.
    private func answersOverBudget(url: URL, received: Int?) -> Reply {
        log("answers being received and sent fill their share of the memory budget: \(url.absoluteString)")
        let reason =
            (received ?? 0) > heldAnswers.capacityBytes
            ? "the upstream's answer (\(received ?? 0) bytes) is larger than the bridge's share for answers being"
                + " sent (\(heldAnswers.capacityBytes) bytes; --memory-budget sets it)"
            : "the bridge is holding too many answers for clients to read; retry shortly"
        return Reply(
            response: .text(.serviceUnavailable, reason, headers: ["Retry-After": "1"]),
            outcome: .overloaded, upstreamBytes: received)
    }
}
