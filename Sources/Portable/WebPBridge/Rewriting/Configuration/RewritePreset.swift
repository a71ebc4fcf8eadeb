/// A named one-rule configuration for a single host, so that
/// `webp-bridge rewrite --preset qiniu-legacy --host img.host.com --width 750 URL`
/// works without a file. Every dialect name is a preset (except `template`,
/// which needs a pattern), plus `huawei-obs` and `baidu-bos` for the OSS
/// look-alikes.
public struct RewritePreset: Sendable {
    /// The name given to `--preset`.
    public let name: String
    /// One line for help and documentation.
    public let summary: String
    /// Whether the preset reproduces the legacy app (`qiniu-legacy`), whose
    /// client rules (`ClientPolicy.legacy` in `ImageDelivery`) go with it.
    public let reproducesLegacyApp: Bool
    private let dialect: RewriteDialect

    private init(_ name: String, _ dialect: RewriteDialect, _ summary: String, legacyApp: Bool = false) {
        self.name = name
        self.dialect = dialect
        self.summary = summary
        self.reproducesLegacyApp = legacyApp
    }

    /// Every preset, in documentation order.
    public static let all: [RewritePreset] = [
        RewritePreset(
            "qiniu", .qiniu(QiniuOptions()),
            "Qiniu imageView2/imageMogr2 (?imageView2/2/w/750/format/webp/ignore-error/1)"),
        RewritePreset(
            "qiniu-legacy", .qiniuLegacy, "the legacy app's Qiniu rules (photo.jpg-WebPiOSW750); needs --width",
            legacyApp: true),
        RewritePreset(
            "tencent-ci", .tencentCI(TencentCIOptions()), "Tencent Cloud CI (?imageMogr2/thumbnail/750x/format/webp)"),
        RewritePreset(
            "aliyun-oss", .aliyunOSS(AliyunOSSOptions()), "Aliyun OSS (?x-oss-process=image/resize,w_750/format,webp)"),
        RewritePreset(
            "huawei-obs", .aliyunOSS(AliyunOSSOptions(parameter: .imageProcess)),
            "Huawei OBS (?x-image-process=image/resize,w_750/format,webp)"),
        RewritePreset(
            "baidu-bos", .aliyunOSS(AliyunOSSOptions(parameter: .bceProcess)),
            "Baidu BOS (?x-bce-process=image/resize,m_lfit,w_750/format,f_webp)"),
        RewritePreset("cloudinary", .cloudinary, "Cloudinary (/image/upload/w_750,c_limit,f_webp/…)"),
        RewritePreset("imgix", .imgix, "imgix (?w=750&fm=webp)"),
        RewritePreset(
            "cloudflare", .cloudflare, "Cloudflare (/cdn-cgi/image/width=750,format=webp,onerror=redirect/…)"),
        RewritePreset(
            "thumbor", .thumbor(ThumborOptions()), "thumbor, unsigned (/unsafe/fit-in/750x0/filters:format(webp)/…)"),
    ]

    /// The preset called `name`, or `nil`.
    public static func named(_ name: String) -> RewritePreset? {
        all.first { $0.name == name }
    }

    /// A validated configuration with one rule, named after the preset, for `host`.
    ///
    /// - Parameters:
    ///   - host: the host (`img.example.com` or `*.example.com`).
    ///   - width: the width to ask for, or `nil` to keep the size.
    ///   - quality: the quality to ask for, or `nil` for the CDN's default.
    ///   - formats: the variants to offer, in preference order (``RewriteRule/formats``).
    /// - Throws: ``RewriteConfigurationError`` for an invalid host or value,
    ///   or a format the preset's CDN does not document.
    public func configuration(
        host: String, width: Int? = nil, quality: Int? = nil, formats: [VariantFormat] = [.webp]
    ) throws(RewriteConfigurationError) -> RewriteConfiguration {
        try configuration(host: host, RewriteOverrides(width: width, quality: quality, formats: formats))
    }

    /// A validated configuration with one rule for `host`, with `settings`
    /// (the width, quality and formats, fixed or left to the CDN; GIFs when
    /// `convertsGIF`) where the preset's CDN documents them.
    ///
    /// - Throws: ``RewriteConfigurationError`` naming the field the CDN does not document.
    public func configuration(
        host: String, _ settings: RewriteOverrides, convertsGIF: Bool = false
    ) throws(RewriteConfigurationError) -> RewriteConfiguration {
        let rule = RewriteRule(
            name: name, hosts: [host], dialect: dialect, width: settings.width, quality: settings.quality,
            convertsGIF: convertsGIF)
        let configuration = RewriteConfiguration(rules: [rule]).overriding(settings)
        try configuration.validate()
        return configuration
    }

    /// The preset called `name`'s configuration for `host`.
    ///
    /// - Throws: ``RewriteConfigurationError`` for an unknown preset (including
    ///   `template`, which needs a pattern from a file) or an invalid value.
    public static func configuration(
        named name: String, host: String, width: Int? = nil, quality: Int? = nil, formats: [VariantFormat] = [.webp]
    ) throws(RewriteConfigurationError) -> RewriteConfiguration {
        guard let preset = named(name) else { throw .unknownPreset(name) }
        return try preset.configuration(host: host, width: width, quality: quality, formats: formats)
    }

    /// The preset called `name`'s configuration for `host`, with `settings`
    /// and, when `convertsGIF`, GIFs (``configuration(host:_:convertsGIF:)``).
    ///
    /// - Throws: ``RewriteConfigurationError`` for an unknown preset or what its CDN does not document.
    public static func configuration(
        named name: String, host: String, _ settings: RewriteOverrides, convertsGIF: Bool = false
    ) throws(RewriteConfigurationError) -> RewriteConfiguration {
        guard let preset = named(name) else { throw .unknownPreset(name) }
        return try preset.configuration(host: host, settings, convertsGIF: convertsGIF)
    }
}
