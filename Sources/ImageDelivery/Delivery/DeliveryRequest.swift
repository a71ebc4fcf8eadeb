public import Foundation

/// What the image path reads of one client request — the same facts,
/// whichever bridge received it.
///
/// An adapter fills it from its own request type: the proxy from an HTTP
/// request head, the URL protocol from a `URLRequest`. Header values are as
/// received; repeated fields are joined with `, ` (RFC 9110 §5.3), except
/// `Cache-Control`, whose values are kept apart.
public struct DeliveryRequest: Sendable, Hashable {
    /// The method, upper case (`GET`, `HEAD`, …). Only `GET` and `HEAD` take
    /// the image path.
    public var method: String
    /// The image URL as the client asked for it (the original).
    public var url: URL
    /// `Accept`, if any.
    public var accept: String?
    /// `User-Agent`, if any.
    public var userAgent: String?
    /// The `Cache-Control` field values (`no-transform` keeps the original).
    public var cacheControl: [String]
    /// `If-None-Match`, if any: a matching tag is answered with 304.
    public var ifNoneMatch: String?
    /// The device class when the app knows it; otherwise the policy's guess
    /// from `User-Agent` (``DeviceClass/guessed(fromUserAgent:)``).
    public var deviceClass: DeviceClass?

    /// Creates the facts of one request; every parameter after `url` is optional.
    public init(
        method: String = "GET", url: URL, accept: String? = nil, userAgent: String? = nil,
        cacheControl: [String] = [], ifNoneMatch: String? = nil, deviceClass: DeviceClass? = nil
    ) {
        self.method = method
        self.url = url
        self.accept = accept
        self.userAgent = userAgent
        self.cacheControl = cacheControl
        self.ifNoneMatch = ifNoneMatch
        self.deviceClass = deviceClass
    }

    /// Whether the method is `HEAD` (the answer carries no body).
    public var isHEAD: Bool { method == "HEAD" }
}

/// Where a request goes, decided without waiting (``ImageBridge/route(_:)``).
public enum DeliveryRoute: Sendable, Hashable {
    /// Not the image path: the adapter fetches the request as it is. `vary`
    /// is set when other clients get a transformed body for this URL, so
    /// caches must key on the fields it names too.
    case passThrough(vary: String?)
    /// The image path, with the policy's decision.
    case image(ClientDecision)
}
