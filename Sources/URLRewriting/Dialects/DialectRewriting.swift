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
}

extension DialectRewriting {
    func sourcePath(of url: URLParts) -> Substring { url.path }
}

/// What a dialect made of a URL.
enum DialectOutcome: Sendable {
    /// The variant URL string and what was done.
    case rewritten(String, detail: String)
    /// No variant, and why.
    case unchanged(RewriteReason)

    static func alreadyWebP(_ detail: String) -> Self { .unchanged(RewriteReason(.alreadyWebP, detail)) }
    static func signed(_ detail: String) -> Self { .unchanged(RewriteReason(.signed, detail)) }
    static func notRewritable(_ detail: String) -> Self { .unchanged(RewriteReason(.notRewritable, detail)) }
}
