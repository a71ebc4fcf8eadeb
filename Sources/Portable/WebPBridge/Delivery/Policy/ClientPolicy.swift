import Foundation

/// Decides, for each image request, whether to pass it through, serve the
/// WebP variant, or fetch the WebP variant and transcode it for the client.
///
/// The defaults follow the facts in CDN-GRAMMARS.md: a client supports WebP
/// when its `Accept` header lists `image/webp` with q > 0 (`image/*` and
/// `*/*` do not count). The legacy app's rules are available as options.
public struct ClientPolicy: Sendable, Hashable {
    /// How the policy tells whether a client decodes WebP.
    public enum WebPSupport: String, Sendable, Hashable, CaseIterable {
        /// `Accept` lists `image/webp` with q > 0: serve WebP; otherwise transcode
        /// (or pass through when ``ClientPolicy/transcodesForOtherClients`` is off).
        case acceptHeader = "accept"
        /// The legacy app's rule, to the letter: a `User-Agent` containing
        /// `AppleWebKit` is a WebView that cannot decode WebP, so transcode for
        /// it whatever its `Accept` says; pass everything else through. It
        /// reproduces the original app (and what a WebView that lists WebP
        /// without decoding it needs); clients that do decode WebP and say so
        /// are better served by ``acceptHeader``.
        case legacyAppleWebKit = "apple-webkit"
    }

    /// How WebP support is detected; default ``WebPSupport/acceptHeader``.
    public var webPSupport: WebPSupport
    /// With ``WebPSupport/acceptHeader``: whether clients without WebP support
    /// get the variant transcoded (saving network bytes) rather than the
    /// original; default `true`.
    public var transcodesForOtherClients: Bool
    /// Device classes that are never rewritten (the legacy app excluded tablets).
    public var excludedDeviceClasses: Set<DeviceClass>

    /// Creates a policy; every parameter has the documented default.
    public init(
        webPSupport: WebPSupport = .acceptHeader, transcodesForOtherClients: Bool = true,
        excludedDeviceClasses: Set<DeviceClass> = []
    ) {
        self.webPSupport = webPSupport
        self.transcodesForOtherClients = transcodesForOtherClients
        self.excludedDeviceClasses = excludedDeviceClasses
    }

    /// The default: negotiate on `Accept`, transcode for the rest.
    public static let standard = ClientPolicy()

    /// The legacy app's behaviour: `AppleWebKit` user agents are transcoded
    /// for, tablets are excluded.
    public static let legacy = ClientPolicy(webPSupport: .legacyAppleWebKit, excludedDeviceClasses: [.tablet])

    /// Decides what to do with `request`, given what the rewriter made of its URL.
    ///
    /// - Parameters:
    ///   - request: the URL and the client's headers.
    ///   - rewrite: ``Rewriter/rewrite(_:)`` applied to `request.url`.
    /// - Returns: pass through, serve a variant or transcode. The variant is
    ///   the one of the rule's formats (``RewriteResult/variants``) the
    ///   client names in `Accept` with the highest q > 0, ties to the rule's
    ///   order (``AcceptHeader/preferred(_:in:over:)``, the origin's
    ///   negotiation too). A URL that already asks for
    ///   WebP is treated as its own variant (its AVIF counterpart to an AVIF
    ///   client when the rule lists AVIF, itself to a WebP client, transcoded
    ///   for the others). One that already asks for AVIF is passed through
    ///   to a client that shows AVIF; any other client gets its WebP
    ///   counterpart (when the dialect spells one) or a transcode, like a
    ///   WebP variant: never a format it did not accept.
    public func decision(for request: ClientRequest, rewrite: RewriteResult) -> ClientDecision {
        decision(for: request, rewrite: rewrite, excluding: [])
    }

    /// ``decision(for:rewrite:)`` with some formats ruled out: the bridge
    /// asks again without AVIF when the AVIF variant fails, so the fallback
    /// is the same rule (WebP if the client shows it, else the transcode).
    public func decision(
        for request: ClientRequest, rewrite: RewriteResult, excluding excluded: Set<VariantFormat>
    ) -> ClientDecision {
        let webPURL: URL
        let variants: [FormatVariant]
        switch rewrite.reason.kind {
        case .rewritten:
            webPURL = rewrite.url
            variants =
                rewrite.variants.isEmpty
                ? [FormatVariant(format: .webp, url: rewrite.url, cacheKey: rewrite.cacheKey)] : rewrite.variants
        case .alreadyWebP:
            webPURL = request.url
            variants =
                rewrite.variants.isEmpty
                ? [FormatVariant(format: .webp, url: request.url, cacheKey: rewrite.cacheKey)] : rewrite.variants
        case .alreadyAVIF:
            let treatment = treatment(of: request)
            if case .passThrough(let reason) = treatment { return .passThrough(reason: reason) }
            if case .variants = treatment, !excluded.contains(.avif) {
                let formats = rewrite.variants.map(\.format).filter { !excluded.contains($0) }
                if let chosen = AcceptHeader.preferred(formats.map(\.mediaType), in: request.accept),
                    formats[chosen] == .avif
                {
                    return .passThrough(reason: "already AVIF")
                }
            }
            // The WebP counterpart, else the AVIF itself, is what gets transcoded.
            webPURL = rewrite.variant(.webp)?.url ?? request.url
            variants = rewrite.variants.filter { $0.format == .webp }
        default:
            if case .passThrough(let reason) = treatment(of: request) { return .passThrough(reason: reason) }
            return .passThrough(reason: "not rewritten")
        }
        switch treatment(of: request) {
        case .variants:
            // The one Accept negotiation (the origin's too): the highest q
            // among the formats the client names, ties to the rule's order.
            let candidates = variants.filter { !excluded.contains($0.format) }
            if let chosen = AcceptHeader.preferred(candidates.map(\.format.mediaType), in: request.accept) {
                return .serveVariant(candidates[chosen].url, candidates[chosen].format)
            }
            return transcodesForOtherClients
                ? .transcode(webPURL) : .passThrough(reason: "client shows none of the rule's formats")
        case .transcode: return .transcode(webPURL)
        case .passThrough(let reason): return .passThrough(reason: reason)
        }
    }

    /// What the policy does with this client's images, whatever the URL:
    /// the one rule behind ``decision(for:rewrite:)`` and
    /// ``servesVariants(to:)``.
    enum Treatment {
        /// The variant formats the client names in `Accept` (never empty).
        case variants(Set<VariantFormat>)
        case transcode
        case passThrough(String)
    }

    func treatment(of request: ClientRequest) -> Treatment {
        if let deviceClass = request.deviceClass, excludedDeviceClasses.contains(deviceClass) {
            return .passThrough("device class '\(deviceClass)' is excluded")
        }
        switch webPSupport {
        case .acceptHeader:
            let accepted = Set(
                VariantFormat.allCases.filter { AcceptHeader.namesExplicitly($0.mediaType, in: request.accept) })
            if !accepted.isEmpty { return .variants(accepted) }
            return transcodesForOtherClients ? .transcode : .passThrough("client does not accept image/webp")
        case .legacyAppleWebKit:
            guard let userAgent = request.userAgent, userAgent.contains("AppleWebKit") else {
                return .passThrough("User-Agent is not AppleWebKit")
            }
            return .transcode
        }
    }

    /// Whether this client's image requests get variants — as they are or
    /// transcoded — rather than the originals: what decides whether a page
    /// for it may name the variants (the proxy's `--rewrite-html`). Asked of
    /// the page request's own fields: under ``WebPSupport/acceptHeader`` with
    /// transcodes off, only a client whose page `Accept` lists `image/webp`
    /// (Chrome's does, WebKit's does not) gets the variants named.
    public func servesVariants(to request: ClientRequest) -> Bool {
        switch treatment(of: request) {
        case .passThrough: return false
        // Pages name the WebP variants: an AVIF-only client needs them transcoded.
        case .variants(let accepted): return accepted.contains(.webp) || transcodesForOtherClients
        case .transcode: return true
        }
    }

    /// The `Accept` an upstream must see for this client's image request
    /// when it is passed through (a URL no rule rewrites, on a host a rule
    /// names, or `no-transform`): for a client the policy transcodes for —
    /// it shows none of the variant formats — its `Accept` refusing WebP and
    /// AVIF, so a negotiating upstream (an origin with `--auto-format`, a
    /// CDN's automatic format) cannot answer in a format it cannot show.
    /// Only when its `Accept` names one of them (a negotiation picks only a
    /// format named exactly): a stylesheet's `text/css,*/*;q=0.1`, or an iOS
    /// WebView's own image `Accept`, goes as sent. `nil`: the client's own
    /// `Accept` goes as sent (it names what it shows, or the policy does not
    /// claim it).
    public func upstreamAccept(for request: ClientRequest) -> String? {
        guard case .transcode = treatment(of: request) else { return nil }
        let types = VariantFormat.allCases.map(\.mediaType)
        guard types.contains(where: { AcceptHeader.namesExplicitly($0, in: request.accept) }) else { return nil }
        return AcceptHeader.refusing(types, in: request.accept)
    }

    /// Rewrites `request.url` with `rewriter` and decides, in one call.
    public func decision(for request: ClientRequest, using rewriter: Rewriter) -> ClientDecision {
        decision(for: request, rewrite: rewriter.rewrite(request.url))
    }
}
