public import Foundation

/// One image request as the library's users build it — the same value
/// whichever adapter received it (the proxy from an HTTP request head, the
/// URL protocol from a `URLRequest`, the web view's scheme bridge from a
/// scheme task) or an app that asks the core itself.
///
/// It goes in at the top once: ``ImageBridge/route(_:)`` plans it (rewrite,
/// client decision, cache keys) into a ``DeliveryPlan`` that is carried
/// down to the answer, never planned again. Its ``image`` is the
/// ``ImageRequest`` the pipeline fetches with — the same value an app
/// builds — and the rest are the facts of the client that sent it.
///
/// Header values are as received; ``accept``, ``userAgent``, ``cacheControl``
/// and ``ifNoneMatch`` are read from ``fields`` when built with
/// ``init(method:url:fields:deviceClass:redirects:)`` (repeated fields
/// joined with `, `, RFC 9110 §5.3, except `Cache-Control`, whose values
/// are kept apart).
public struct DeliveryRequest: Sendable, Equatable {
    /// The method, upper case (`GET`, `HEAD`, …). Only `GET` and `HEAD` take
    /// the image path.
    public var method: String
    /// The image request: the URL as the client asked for it (the
    /// original) and the pipeline's options (redirect handling, cache
    /// policy, priority).
    public var image: ImageRequest
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
    /// The request's fields, sent on with the original when the core hands
    /// it over: its end-to-end fields only (the core drops hop-by-hop ones,
    /// `Host`, `Content-Length` and `Expect`), `Via` as the adapter leaves it
    /// (the proxy appends its own entry).
    public var fields: HTTPFieldList

    /// Creates the request from its facts; every parameter after `url` is
    /// optional. ``fields`` holds the facts given (`Accept`, `User-Agent`,
    /// `Cache-Control`, `If-None-Match`).
    public init(
        method: String = "GET", url: URL, accept: String? = nil, userAgent: String? = nil,
        cacheControl: [String] = [], ifNoneMatch: String? = nil, deviceClass: DeviceClass? = nil,
        redirects: RedirectHandling = .follow
    ) {
        self.method = method
        image = ImageRequest(url: url, redirects: redirects)
        self.accept = accept
        self.userAgent = userAgent
        self.cacheControl = cacheControl
        self.ifNoneMatch = ifNoneMatch
        self.deviceClass = deviceClass
        var fields = HTTPFieldList()
        if let accept { fields.add(name: "Accept", value: accept) }
        if let userAgent { fields.add(name: "User-Agent", value: userAgent) }
        for value in cacheControl { fields.add(name: "Cache-Control", value: value) }
        if let ifNoneMatch { fields.add(name: "If-None-Match", value: ifNoneMatch) }
        self.fields = fields
    }

    /// Creates the request from a request's header section, as an adapter
    /// received it.
    public init(
        method: String, url: URL, fields: HTTPFieldList, deviceClass: DeviceClass? = nil,
        redirects: RedirectHandling = .follow
    ) {
        self.method = method.uppercased()
        image = ImageRequest(url: url, redirects: redirects)
        self.fields = fields
        accept = fields.combinedValue(for: "Accept")
        userAgent = fields["User-Agent"]
        cacheControl = fields.values(for: "Cache-Control")
        ifNoneMatch = fields.combinedValue(for: "If-None-Match")
        self.deviceClass = deviceClass
    }

    /// The image URL as the client asked for it (the original): ``image``'s.
    public var url: URL {
        get { image.url }
        set { image.url = newValue }
    }

    /// Whether an upstream redirect is followed within the pipeline's
    /// policy (the default) or answered as a redirect for the client to
    /// follow (``RedirectHandling/report``: the URL protocol on Apple
    /// platforms): ``image``'s.
    public var redirects: RedirectHandling {
        get { image.redirects }
        set { image.redirects = newValue }
    }

    /// Whether the method is `HEAD` (the answer carries no body).
    public var isHEAD: Bool { method == "HEAD" }
}

/// Where a request goes, decided without waiting (``ImageBridge/route(_:)``).
public enum DeliveryRoute: Sendable, Equatable {
    /// Not the image path: the adapter fetches the request as it is. `vary`
    /// is set when other clients get a transformed body for this URL, so
    /// caches must key on the fields it names too. `upstreamAccept`, when
    /// set, replaces the request's `Accept` upstream
    /// (``ClientPolicy/upstreamAccept(for:)``).
    case passThrough(vary: String?, upstreamAccept: String? = nil)
    /// The image path, planned: carry the plan to
    /// ``ImageBridge/cachedDelivery(for:)`` and ``ImageBridge/deliver(_:)``.
    case image(DeliveryPlan)
}
