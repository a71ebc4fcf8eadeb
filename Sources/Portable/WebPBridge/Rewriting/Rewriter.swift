public import Foundation

/// Turns image URLs into their CDN's WebP variants: the entry point of this module.
///
/// Rules are validated and compiled once, in `init`; ``rewrite(_:)`` is then
/// a pure function of the URL, safe to call from any thread concurrently.
/// Rewriting is idempotent: a variant is recognised and left as it is.
public struct Rewriter: Sendable {
    /// The configuration the rewriter was built from.
    public let configuration: RewriteConfiguration
    private let rules: [CompiledRule]
    /// Exact host → the indices of the rules that list it, so that one hash
    /// lookup finds the candidates.
    private let rulesByHost: [String: [Int]]
    private let hasWildcards: Bool

    /// Compiles `configuration`.
    ///
    /// - Throws: ``RewriteConfigurationError`` naming the rule and field when
    ///   a rule is invalid (unknown host pattern, width out of range, a
    ///   template placeholder without its value…).
    public init(configuration: RewriteConfiguration) throws(RewriteConfigurationError) {
        self.configuration = configuration
        var rules: [CompiledRule] = []
        for (index, rule) in configuration.rules.enumerated() {
            rules.append(try CompiledRule(rule, index: index))
        }
        self.rules = rules
        var byHost: [String: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            for host in rule.exactHosts { byHost[host, default: []].append(index) }
        }
        rulesByHost = byHost
        hasWildcards = rules.contains { !$0.wildcardSuffixes.isEmpty }
    }

    /// Rewrites `url` with the first rule that accepts it.
    ///
    /// The URL is read as a browser reads it (the WHATWG URL standard, see
    /// ``WHATWGURL``): a URL is rewritten only when it parses, and the
    /// variant is made from its serialisation, with dot segments already
    /// resolved and no escape encoded twice. A rule accepts a URL when its
    /// host is one of the rule's hosts (the real host, compared
    /// case-insensitively), its scheme is listed, its path starts with the
    /// rule's prefix and ends in a JPEG or PNG name (or GIF when the rule
    /// opts in). The dialect then produces the variant, unless the URL is
    /// signed or already asks for WebP.
    ///
    /// - Returns: the variant (or `url` itself, unchanged), its cache key,
    ///   the rule that matched the host, and the reason.
    public func rewrite(_ url: URL) -> RewriteResult {
        let string = url.absoluteString
        do {
            return rewrite(href: try WHATWGURL.href(of: string), original: url)
        } catch {
            return RewriteResult(
                url: url, cacheKey: CacheKey.normalized(unparsed: string), ruleName: nil,
                reason: RewriteReason(.notAbsolute, "not a URL: \(error)"))
        }
    }

    /// Rewrites the URL `text` as a page or a command line wrote it, resolved
    /// against `base` as a browser resolves it: tabs and newlines dropped,
    /// backslashes read as `/`, dot segments resolved, escapes kept as written.
    ///
    /// Foundation's `URL(string:)` cannot be given such text directly (it
    /// refuses `http://a:b@host\a.jpg`, keeps a tab as `%09`, encodes `%2.`
    /// again, and before iOS 17 refuses a raw space or non-ASCII), so the HTML
    /// rewriter and the CLI come here.
    ///
    /// - Returns: `nil` when `text` is not a URL (the WHATWG parser fails, or
    ///   the host needs IDNA) or Foundation cannot hold it; otherwise the
    ///   result, whose ``RewriteResult/url`` is, when rewritten, the variant
    ///   exactly as serialised, and when unchanged, the parsed URL as
    ///   `URL(whatwg:relativeTo:)` holds it (a caller keeps its own text then).
    public func rewrite(_ text: String, relativeTo base: URL?) -> RewriteResult? {
        guard let href = WHATWGURL.parse(text, relativeTo: base)?.href, let url = URL(whatwgHref: href) else {
            return nil
        }
        return rewrite(href: href, original: url)
    }

    /// The rewrite of a URL's serialisation; `original` is returned when unchanged.
    private func rewrite(href: String, original url: URL) -> RewriteResult {
        // Only a URL with a host splits as `scheme://host…` (not `mailto:`, `file:///`).
        guard let parts = URLParts(href) else {
            return RewriteResult(
                url: url, cacheKey: CacheKey.normalized(unparsed: href), ruleName: nil,
                reason: RewriteReason(.notAbsolute, "not an absolute URL with a host"))
        }
        let host = parts.normalizedHost
        var firstMiss: (rule: CompiledRule, reason: RewriteReason)?
        let exact = rulesByHost[host]
        if exact == nil, !hasWildcards {
            return unchanged(url, parts, rule: nil, RewriteReason(.noRuleForHost, String(parts.host)))
        }
        for (index, rule) in rules.enumerated() {
            guard exact?.contains(index) == true || rule.matchesWildcard(host) else { continue }
            switch check(parts, against: rule) {
            case .miss(let reason):
                if firstMiss == nil { firstMiss = (rule, reason) }
            case .stop(let reason):
                return unchanged(url, parts, rule: rule, reason)
            case .accepted:
                switch rule.dialect.rewrite(parts) {
                case .unchanged(let reason) where reason.kind == .alreadyWebP && rule.formats.count > 1:
                    // A page that already names the WebP variant: left as it
                    // is, with its other formats for a client that shows them.
                    let webP = FormatVariant(format: .webp, url: url, cacheKey: CacheKey.normalized(parts))
                    return RewriteResult(
                        url: url, cacheKey: webP.cacheKey, ruleName: rule.name, reason: reason,
                        variants: variants(of: webP, rule: rule, source: parts))
                case .unchanged(let reason) where reason.kind == .alreadyAVIF:
                    // A page that names an AVIF variant itself: itself, and its
                    // WebP counterpart for a client that cannot show AVIF.
                    let avif = FormatVariant(format: .avif, url: url, cacheKey: CacheKey.normalized(parts))
                    return RewriteResult(
                        url: url, cacheKey: avif.cacheKey, ruleName: rule.name, reason: reason,
                        variants: [avif] + webPCounterpart(ofAVIF: avif, parts, rule: rule))
                case .unchanged(let reason):
                    return unchanged(url, parts, rule: rule, reason)
                case .rewritten(let variant, let detail):
                    // The variant as a browser would read it, and held by
                    // Foundation byte for byte on every OS version (a `%2.` or
                    // `|` it would have to encode, naming another resource,
                    // or refuse before iOS 17): else the URL stays.
                    guard let variantHref = try? WHATWGURL.href(of: variant),
                        let variantURL = URL(exactly: variantHref), let variantParts = URLParts(variantHref)
                    else {
                        return unchanged(
                            url, parts, rule: rule,
                            RewriteReason(.notRewritable, "the variant would not be a valid URL as written"))
                    }
                    let webP = FormatVariant(
                        format: .webp, url: variantURL, cacheKey: CacheKey.normalized(variantParts))
                    return RewriteResult(
                        url: variantURL, cacheKey: webP.cacheKey, ruleName: rule.name,
                        reason: RewriteReason(.rewritten, detail),
                        variants: variants(of: webP, rule: rule, source: parts))
                }
            }
        }
        if let firstMiss { return unchanged(url, parts, rule: firstMiss.rule, firstMiss.reason) }
        return unchanged(url, parts, rule: nil, RewriteReason(.noRuleForHost, String(parts.host)))
    }

    /// The cache key for `url`: the normalised variant when a rule rewrites
    /// it, the normalised URL itself otherwise. A URL and its variant share a key.
    public func cacheKey(for url: URL) -> String {
        rewrite(url).cacheKey
    }

    /// `url` normalised as a cache key (scheme and host lower-cased, default
    /// port and fragment dropped), without rewriting.
    public static func normalizedCacheKey(for url: URL) -> String {
        normalizedCacheKey(url.absoluteString)
    }

    /// The URL `text` (resolved against `base`) normalised as a cache key,
    /// without rewriting; `nil` when it is not a URL.
    public static func normalizedCacheKey(for text: String, relativeTo base: URL?) -> String? {
        WHATWGURL.parse(text, relativeTo: base).map { normalizedCacheKey($0.href) }
    }

    private static func normalizedCacheKey(_ string: String) -> String {
        guard let href = try? WHATWGURL.href(of: string), let parts = URLParts(href) else {
            return CacheKey.normalized(unparsed: string)
        }
        return CacheKey.normalized(parts)
    }

    /// Rewrites `url` to its variant in `format`: ``rewrite(_:)`` for WebP;
    /// for AVIF the same variant in AVIF when the matching rule lists it
    /// (also from a URL that already names the WebP variant), else `url`
    /// unchanged with the reason.
    public func rewrite(_ url: URL, to format: VariantFormat) -> RewriteResult {
        let result = rewrite(url)
        guard format != .webp, result.isRewritten || result.reason.kind == .alreadyWebP else { return result }
        guard let variant = result.variant(format) else {
            return RewriteResult(
                url: url, cacheKey: Self.normalizedCacheKey(for: url), ruleName: result.ruleName,
                reason: RewriteReason(.notRewritable, "the rule does not make \(format)"))
        }
        return RewriteResult(
            url: variant.url, cacheKey: variant.cacheKey, ruleName: result.ruleName,
            reason: RewriteReason(.rewritten, result.reason.detail + " (\(format))"), variants: result.variants)
    }

    /// The rule's formats for a WebP variant just made: AVIF is the WebP
    /// variant respelled, kept only when the dialect reads it back as an
    /// AVIF variant on the same host (so it is never rewritten again).
    /// A GIF gets none: no dialect's CDN documents an animated AVIF from a
    /// GIF (Cloudflare's animations are GIF or WebP only; Cloudinary's flag
    /// animates WebP), and a still AVIF would lose the animation — an AVIF
    /// client shows the animated WebP instead.
    private func variants(of webP: FormatVariant, rule: CompiledRule, source parts: URLParts) -> [FormatVariant] {
        guard rule.formats.count > 1, let spelling = rule.dialect.formatSpelling,
            ImageType(path: rule.dialect.sourcePath(of: parts)) != .gif,
            let webPParts = URLParts(webP.url.absoluteString)
        else { return [webP] }
        var variants: [FormatVariant] = []
        for format in rule.formats {
            guard format == .avif else {
                variants.append(webP)
                continue
            }
            guard let string = spelling.avifVariant(of: webP.url.absoluteString), let url = URL(exactly: string),
                let parts = URLParts(url.absoluteString), parts.normalizedHost == webPParts.normalizedHost,
                rewrite(url).reason.kind == .alreadyAVIF
            else { continue }
            variants.append(FormatVariant(format: .avif, url: url, cacheKey: CacheKey.normalized(parts)))
        }
        return variants
    }

    /// The WebP counterpart of an explicit AVIF URL: its format token
    /// respelled, kept only when the dialect reads it back as a WebP variant
    /// on the same host (so it is never rewritten again). Empty otherwise.
    private func webPCounterpart(ofAVIF avif: FormatVariant, _ parts: URLParts, rule: CompiledRule) -> [FormatVariant] {
        guard let spelling = rule.dialect.formatSpelling,
            let string = spelling.webPVariant(of: avif.url.absoluteString), let url = URL(exactly: string),
            let webPParts = URLParts(url.absoluteString), webPParts.normalizedHost == parts.normalizedHost,
            case .unchanged(let reason) = rule.dialect.rewrite(webPParts), reason.kind == .alreadyWebP
        else { return [] }
        return [FormatVariant(format: .webp, url: url, cacheKey: CacheKey.normalized(webPParts))]
    }

    private enum Check {
        case accepted
        /// This rule does not apply; a later rule for the same host may.
        case miss(RewriteReason)
        /// The rule applies and the answer is final (already WebP).
        case stop(RewriteReason)
    }

    private func check(_ parts: URLParts, against rule: CompiledRule) -> Check {
        guard rule.matchesScheme(parts.normalizedScheme) else {
            return .miss(RewriteReason(.schemeNotMatched, "scheme \(parts.scheme) is not one of the rule's schemes"))
        }
        let source = rule.dialect.sourcePath(of: parts)
        // An empty path is the root: `http://host` is `http://host/`.
        guard source.hasBytePrefix(rule.pathPrefix) || (source.isEmpty && rule.pathPrefix == "/") else {
            return .miss(RewriteReason(.pathPrefixNotMatched, "path does not start with \(rule.pathPrefix)"))
        }
        switch ImageType(path: source) {
        case .jpeg, .png:
            return .accepted
        case .gif:
            return rule.convertsGIF
                ? .accepted : .miss(RewriteReason(.gifNotEnabled, "GIF (the rule does not convert GIFs)"))
        case .webp:
            return .stop(RewriteReason(.alreadyWebP, "the path names a .webp file"))
        case .other:
            return .miss(RewriteReason(.notAnImage, "the path does not end in .jpg, .jpeg or .png"))
        }
    }

    private func unchanged(_ url: URL, _ parts: URLParts, rule: CompiledRule?, _ reason: RewriteReason) -> RewriteResult
    {
        RewriteResult(url: url, cacheKey: CacheKey.normalized(parts), ruleName: rule?.name, reason: reason)
    }
}
