public import Foundation

/// An upstream's answer to the original, as the core relays it.
public struct RelayedResponse: Sendable, Equatable {
    /// The URL that answered.
    public var url: URL
    /// Its status (200–599).
    public var statusCode: Int
    /// Its end-to-end fields (``HopByHopFields/responseFieldsToForward(_:)``),
    /// the image path's `Vary` merged in; without `Content-Length`.
    public var fields: HTTPFieldList
    /// Its body (empty for `HEAD`).
    public var body: Data
    /// The length its `Content-Length` declared, when it is a number: what
    /// a `HEAD` answer declares without a body.
    public var declaredLength: Int?
    /// Where it redirects, when it is a redirect to an `http` or `https` URL
    /// (``DataResponse/redirectLocation``): a client that follows redirects
    /// is to follow it; one that cannot is answered
    /// ``Delivery/redirectNotFollowedReason(status:)``.
    public var redirectLocation: URL?
}

/// A finished answer in HTTP terms — status, fields, body — the one mapping
/// of every ``Delivery/Content`` (the failures' statuses and texts
/// included) that every adapter translates into its medium.
public struct DeliveryAnswer: Sendable, Equatable {
    /// The status.
    public var statusCode: Int
    /// The fields, in order, without `Content-Length` (the adapter's framing).
    public var fields: HTTPFieldList
    /// The body a `GET` carries (a relayed `HEAD` has none).
    public var body: Data
    /// The length the answer declares: the body's, or a relayed `HEAD`'s
    /// upstream `Content-Length`.
    public var contentLength: Int

    /// A plain-text answer saying why, with `fields` before its `Content-Type`.
    static func text(_ statusCode: Int, _ reason: String, fields: HTTPFieldList = [:]) -> DeliveryAnswer {
        let body = Data((reason.hasSuffix("\n") ? reason : reason + "\n").utf8)
        var all = fields
        all["Content-Type"] = "text/plain; charset=utf-8"
        return DeliveryAnswer(statusCode: statusCode, fields: all, body: body, contentLength: body.count)
    }
}

extension Delivery {
    /// The answer as status, fields and body: the image or 304 with
    /// ``fields``; the relayed original as the upstream answered it; a
    /// redirect with its `Location`; `503` with `Retry-After` when the
    /// transcode queue is full; `503` when cancelled; `502` with the text of
    /// ``upstreamFailureReason(_:limits:)`` when the upstream gave no answer,
    /// or an invalid status.
    public var answer: DeliveryAnswer {
        switch content {
        case .image(let body, _):
            return DeliveryAnswer(statusCode: 200, fields: fields, body: body, contentLength: body.count)
        case .notModified:
            return DeliveryAnswer(statusCode: 304, fields: fields, body: Data(), contentLength: 0)
        case .original(_, let relayed):
            return DeliveryAnswer(
                statusCode: relayed.statusCode, fields: relayed.fields, body: relayed.body,
                contentLength: relayed.body.isEmpty ? relayed.declaredLength ?? 0 : relayed.body.count)
        case .redirect(let redirect):
            return DeliveryAnswer(
                statusCode: redirect.statusCode, fields: ["Location": redirect.location.absoluteString, "Vary": vary],
                body: Data(), contentLength: 0)
        case .overloaded(let seconds):
            return .text(503, Self.overloadedReason, fields: ["Retry-After": String(seconds)])
        case .cancelled:
            return .text(503, "the request was cancelled")
        case .upstreamFailure(let error, _):
            return .text(502, Self.upstreamFailureReason(error, limits: relayLimits))
        case .invalidUpstreamStatus:
            return .text(502, "the upstream sent an invalid status")
        }
    }

    /// The text of a `503` for a full transcode queue.
    public static let overloadedReason = "the bridge is busy transcoding images; retry shortly"

    /// The text of every network failure.
    public static let upstreamUnavailable = "the bridge could not get an answer from the upstream"

    /// What failed, in words any client may see: the same text for every
    /// network failure (refused, unreachable, timed out, broken), so that
    /// nothing about the upstream's network shows, and never a URL, a
    /// credential or the loader's message (those are for the log); the
    /// limit passed for a body or head over it.
    public static func upstreamFailureReason(_ error: DataLoadingError, limits: ImageBridge.Relay.Limits) -> String {
        switch error.kind {
        case .tooLarge:
            "the upstream's answer is larger than the bridge's limit (\(limits.maxBodyBytes) bytes)"
        case .cancelled: "the upstream request was cancelled"
        case .responseHeadTooLarge:
            "the upstream's response head is larger than the bridge's limit "
                + "(\(limits.fieldLimits.maxCount) fields, \(limits.fieldLimits.maxBytes) bytes)"
        default: upstreamUnavailable
        }
    }

    /// The text of a `502` where the medium cannot pass a redirect on (a
    /// web view's scheme handler).
    public static func redirectNotFollowedReason(status: Int) -> String {
        "the upstream answered \(status) (redirects not followed)"
    }
}
