/// One rewrite rule: which URLs it applies to (host, scheme, path prefix,
/// image type) and how it asks the CDN for WebP (dialect, width, quality).
///
/// A rule is plain data; ``Rewriter/init(configuration:)`` validates it and
/// compiles it once into the typed matcher used for every URL.
public struct RewriteRule: Sendable, Hashable {
    /// The name shown by `--explain` and in configuration errors.
    public var name: String
    /// Hosts the rule applies to: exact (`img.example.com`) or a wildcard for
    /// every subdomain (`*.example.com`, which does not match `example.com`).
    /// Compared with the URL's real host, case-insensitively.
    public var hosts: [String]
    /// Schemes the rule applies to; default `http` and `https`.
    public var schemes: [String]
    /// The rule applies only to paths starting with this prefix (compared with
    /// the path as written, percent-encoding included); default `/`, every path.
    public var pathPrefix: String
    /// Whether GIF paths are rewritten too (animated WebP); default `false`.
    /// Only for dialects whose CDN documents animated WebP from a GIF (see
    /// docs/rewrite.md, "Animated GIFs"); the others refuse it at load.
    public var convertsGIF: Bool
    /// How the CDN is asked for WebP.
    public var dialect: RewriteDialect
    /// The width to ask for (the screen width in pixels), or `nil` to keep
    /// the size. With ``widthFromClient``, the fallback width for a client
    /// that sends no hints (where the CDN documents one).
    public var width: Int?
    /// The WebP quality (1–100) to ask for, or `nil` for the CDN's default.
    public var quality: Int?
    /// The formats the rule's CDN can make, in preference order; default
    /// `[.webp]`. It must list WebP (the variant ``Rewriter/rewrite(_:)``
    /// gives, and the fallback of any other); AVIF only for a dialect whose
    /// CDN documents it (see docs/rewrite.md).
    public var formats: [VariantFormat]
    /// A quality the CDN chooses per image (Cloudinary `q_auto`, imgix
    /// `auto=compress`), or `nil`; not together with ``quality``.
    public var automaticQuality: AutomaticQuality?
    /// Whether the CDN chooses the format by the request's `Accept`
    /// (Cloudinary `f_auto`, imgix `auto=format`, Cloudflare `format=auto`,
    /// Baidu BOS `format,f_auto`); default `false`. Only with ``formats`` of
    /// `[.webp]`: a bridge fetches every variant with one fixed `Accept`, so
    /// the negotiated URL always answers the same bytes, and an AVIF variant
    /// beside it could not be told apart.
    public var automaticFormat: Bool
    /// Whether the CDN takes the width from the client's hints (Cloudinary
    /// `w_auto,dpr_auto`, imgix `ch=Width,DPR`, Cloudflare `width=auto`);
    /// default `false`. A bridge sends no hints, so it gets the fallback.
    public var widthFromClient: Bool

    /// Creates a rule; every parameter after `dialect` has the documented default.
    public init(
        name: String, hosts: [String], dialect: RewriteDialect, width: Int? = nil, quality: Int? = nil,
        schemes: [String] = ["http", "https"], pathPrefix: String = "/", convertsGIF: Bool = false,
        formats: [VariantFormat] = [.webp], automaticQuality: AutomaticQuality? = nil, automaticFormat: Bool = false,
        widthFromClient: Bool = false
    ) {
        self.name = name
        self.hosts = hosts
        self.dialect = dialect
        self.width = width
        self.quality = quality
        self.schemes = schemes
        self.pathPrefix = pathPrefix
        self.convertsGIF = convertsGIF
        self.formats = formats
        self.automaticQuality = automaticQuality
        self.automaticFormat = automaticFormat
        self.widthFromClient = widthFromClient
    }

    var automaticRequests: AutomaticRequests {
        AutomaticRequests(quality: automaticQuality, format: automaticFormat, widthFromClient: widthFromClient)
    }
}
