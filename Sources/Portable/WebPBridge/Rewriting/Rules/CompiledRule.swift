/// A ``RewriteRule`` validated and parsed once: lower-cased host sets, the
/// dialect's fixed strings built, templates and styles parsed.
///
/// A final class of immutable fields (hence `Sendable`): the rewriter walks
/// its rules for every URL, and a reference avoids copying every field.
final class CompiledRule: Sendable {
    let name: String
    let exactHosts: Set<String>
    /// `.example.com` for `*.example.com`.
    let wildcardSuffixes: [String]
    /// Lower-cased.
    let schemes: [String]
    let pathPrefix: String
    let convertsGIF: Bool
    let dialect: any DialectRewriting
    /// The rule's formats in preference order; WebP always among them.
    let formats: [VariantFormat]

    /// Validates `rule` (the `index`-th, 0-based) and compiles it.
    init(_ rule: RewriteRule, index: Int) throws(RewriteConfigurationError) {
        let label = RewriteRule.label(index: index, name: rule.name)
        name = rule.name.isEmpty ? "rule \(index + 1)" : rule.name
        guard !rule.hosts.isEmpty else {
            throw .invalid(rule: label, field: "hosts", "needs at least one host (img.example.com or *.example.com)")
        }
        var exact: Set<String> = []
        var wildcards: [String] = []
        for host in rule.hosts {
            let lowered = host.lowercased()
            let bare = lowered.hasPrefix("*.") ? String(lowered.dropFirst(2)) : lowered
            let isIPv6 = bare.hasPrefix("[") && bare.hasSuffix("]")
            let valid =
                !bare.isEmpty && !bare.hasPrefix(".") && !bare.hasSuffix(".") && !bare.contains("..")
                && bare.allSatisfy { character in
                    character.isASCII
                        && (character.isLetter || character.isNumber || character == "-" || character == "."
                            || character == "_"
                            || (isIPv6 && (character == ":" || character == "[" || character == "]")))
                }
            guard valid else {
                throw .invalid(
                    rule: label, field: "hosts",
                    "'\(host)' is not a host name or *.domain pattern (no scheme, port, path or inner *)")
            }
            if lowered.hasPrefix("*.") { wildcards.append("." + bare) } else { exact.insert(bare) }
        }
        exactHosts = exact
        wildcardSuffixes = wildcards
        guard !rule.schemes.isEmpty else { throw .invalid(rule: label, field: "schemes", "needs at least one scheme") }
        for scheme in rule.schemes
        where scheme.isEmpty || !scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            throw .invalid(rule: label, field: "schemes", "'\(scheme)' is not a URL scheme")
        }
        var schemes: [String] = []
        for scheme in rule.schemes.map({ $0.lowercased() }) where !schemes.contains(scheme) { schemes.append(scheme) }
        self.schemes = schemes
        guard rule.pathPrefix.isEmpty || rule.pathPrefix.hasPrefix("/") else {
            throw .invalid(rule: label, field: "pathPrefix", "must start with '/', got '\(rule.pathPrefix)'")
        }
        pathPrefix = rule.pathPrefix
        convertsGIF = rule.convertsGIF
        if let width = rule.width, !(1...16_383).contains(width) {
            throw .invalid(rule: label, field: "width", "must be between 1 and 16383 (WebP's limit), got \(width)")
        }
        if let quality = rule.quality, !(1...100).contains(quality) {
            throw .invalid(rule: label, field: "quality", "must be between 1 and 100, got \(quality)")
        }
        let width = rule.width
        let quality = rule.quality
        let automatic = rule.automaticRequests
        try Self.check(rule, label: label)
        switch rule.dialect {
        case .qiniu(let options):
            dialect = try QiniuDialect(options: options, width: width, quality: quality, rule: label)
        case .qiniuLegacy:
            dialect = try QiniuLegacyDialect(width: width, rule: label)
        case .tencentCI(let options):
            dialect = TencentCIDialect(options: options, width: width, quality: quality)
        case .aliyunOSS(let options):
            dialect = AliyunOSSDialect(options: options, width: width, quality: quality, automatic: automatic)
        case .cloudinary:
            dialect = CloudinaryDialect(width: width, quality: quality, automatic: automatic)
        case .imgix:
            dialect = ImgixDialect(width: width, quality: quality, automatic: automatic)
        case .cloudflare:
            dialect = CloudflareDialect(width: width, quality: quality, automatic: automatic)
        case .thumbor(let options):
            dialect = try ThumborDialect(options: options, width: width, quality: quality, rule: label)
        case .template(let pattern):
            dialect = try TemplateDialect(pattern: pattern, width: width, quality: quality, rule: label)
        }
        guard rule.formats.contains(.webp) else {
            throw .invalid(
                rule: label, field: "formats",
                "must list webp (every variant's fallback), e.g. [\"avif\", \"webp\"]")
        }
        guard Set(rule.formats).count == rule.formats.count else {
            throw .invalid(rule: label, field: "formats", "lists a format twice")
        }
        if rule.formats.contains(.avif), dialect.formatSpelling == nil {
            throw .invalid(
                rule: label, field: "formats",
                "the \(rule.dialect.name) dialect cannot ask for AVIF: its CDN does not document it"
                    + " (see docs/rewrite.md); list only webp")
        }
        formats = rule.formats
    }

    /// Refuses what the rule's CDN does not document (``DialectCapabilities``),
    /// naming the field: GIFs, automatic quality, format and width.
    private static func check(_ rule: RewriteRule, label: String) throws(RewriteConfigurationError) {
        let capabilities = rule.dialect.capabilities
        let name = rule.dialect.name
        if rule.convertsGIF, !capabilities.animatedWebPFromGIF {
            throw .invalid(
                rule: label, field: "gif",
                "the \(name) dialect's CDN does not document animated WebP from a GIF (a still could come back;"
                    + " see docs/rewrite.md); leave GIFs alone")
        }
        if let automatic = rule.automaticQuality {
            if rule.quality != nil {
                throw .invalid(rule: label, field: "quality", "is either a number or \(automatic), not both")
            }
            guard capabilities.automaticQualities.contains(automatic) else {
                let known = AutomaticQuality.allCases.filter(capabilities.automaticQualities.contains)
                let offered =
                    known.isEmpty
                    ? "its CDN documents no automatic quality"
                    : "its CDN documents only " + known.map(\.rawValue).joined(separator: ", ")
                throw .invalid(
                    rule: label, field: "quality", "the \(name) dialect cannot ask for \(automatic): \(offered)")
            }
            if capabilities.automaticQualityNeedsAutomaticFormat, !rule.automaticFormat {
                throw .invalid(
                    rule: label, field: "quality",
                    "\(automatic) needs \"formats\": \"auto\" on \(name): its automatic compression alone"
                        + " serves a still as JPEG or PNG, not WebP (docs.imgix.com/apis/rendering/auto)")
            }
        }
        if rule.automaticFormat {
            guard capabilities.automaticFormat else {
                throw .invalid(
                    rule: label, field: "formats",
                    "the \(name) dialect cannot ask for auto: its CDN documents no format chosen by Accept")
            }
            guard rule.formats == [.webp] else {
                throw .invalid(
                    rule: label, field: "formats",
                    "auto lets the CDN choose by Accept, so it cannot be listed with other formats"
                        + " (a bridge fetches a variant with one fixed Accept: the WebP one)")
            }
        }
        if rule.widthFromClient {
            guard capabilities.widthFromClient else {
                throw .invalid(
                    rule: label, field: "width",
                    "the \(name) dialect cannot ask for auto: its CDN documents no width from client hints")
            }
            if rule.width != nil, !capabilities.fallbackWidth {
                throw .invalid(
                    rule: label, field: "width",
                    "the \(name) dialect's CDN names no fallback width for auto: use \"auto\" alone")
            }
        }
    }

    /// Whether `scheme` (lower-cased) is one of the rule's schemes.
    @inline(__always)
    func matchesScheme(_ scheme: String) -> Bool {
        schemes.contains(scheme)
    }

    /// Whether `host` (lower-cased, no trailing dot) matches one of the rule's `*.` patterns.
    func matchesWildcard(_ host: String) -> Bool {
        for suffix in wildcardSuffixes where host.utf8.count > suffix.utf8.count && host.hasSuffix(suffix) {
            return true
        }
        return false
    }
}
