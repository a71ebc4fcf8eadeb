/// A compiled dialect: rule parameters already parsed, ready to rewrite URLs.
/// Implementations are pure and immutable, so one instance serves every thread.
protocol DialectRewriting: Sendable {
    /// The path the rule's prefix and image-type checks apply to: the source
    /// image's path, without the dialect's own additions (a style suffix, a
    /// `/cdn-cgi/image/…` prefix), so that a variant is judged like its source.
    func sourcePath(of url: URLParts) -> Substring

    /// The WebP variant of `url`, or why there is none. Called only for URLs
    /// whose host, scheme, prefix and image type the rule accepts.
    func rewrite(_ url: URLParts) -> DialectOutcome

    /// How the dialect's variants name their format, when its CDN documents
    /// AVIF; `nil` otherwise (a rule listing `avif` is then refused).
    var formatSpelling: FormatSpelling? { get }
}

extension DialectRewriting {
    func sourcePath(of url: URLParts) -> Substring { url.path }
    var formatSpelling: FormatSpelling? { nil }
}

/// The token a dialect's WebP variant carries and its AVIF counterpart:
/// the AVIF variant is the WebP one with that token respelled, then checked
/// by the dialect itself (it must read back as AVIF).
struct FormatSpelling: Sendable {
    /// `format/webp`, `f_webp`, `fm=webp`…
    let webP: String
    /// `format/avif`, `f_avif`, `fm=avif`…
    let avif: String
    /// Whether the token sits after the source (a query item, found from the
    /// end) rather than before it (path options, found from the start).
    let inQuery: Bool

    /// `variant` with its format token respelled as AVIF, or `nil` when it has none.
    func avifVariant(of variant: String) -> String? { respelled(variant, from: webP, to: avif) }

    /// `variant` (an AVIF URL) with its format token respelled as WebP, or
    /// `nil` when it has none: the WebP counterpart of an explicit AVIF URL.
    func webPVariant(of variant: String) -> String? { respelled(variant, from: avif, to: webP) }

    private func respelled(_ variant: String, from token: String, to replacement: String) -> String? {
        let end = variant.firstIndex(of: "#") ?? variant.endIndex
        let body = variant[..<end]
        let found = inQuery ? body.ranges(of: token).last : body.ranges(of: token).first
        guard let found else { return nil }
        return String(variant[..<found.lowerBound]) + replacement + variant[found.upperBound...]
    }
}

/// What a dialect made of a URL.
enum DialectOutcome: Sendable {
    /// The variant URL string and what was done.
    case rewritten(String, detail: String)
    /// No variant, and why.
    case unchanged(RewriteReason)

    static func alreadyWebP(_ detail: String) -> Self { .unchanged(RewriteReason(.alreadyWebP, detail)) }
    static func alreadyAVIF(_ detail: String) -> Self { .unchanged(RewriteReason(.alreadyAVIF, detail)) }
    static func signed(_ detail: String) -> Self { .unchanged(RewriteReason(.signed, detail)) }
    static func notRewritable(_ detail: String) -> Self { .unchanged(RewriteReason(.notRewritable, detail)) }
}
