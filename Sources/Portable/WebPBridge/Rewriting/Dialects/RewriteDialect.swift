/// How a CDN is asked for WebP: the grammar a rule rewrites URLs into.
///
/// Every dialect also recognises URLs that already ask for WebP (so rewriting
/// is idempotent) and URLs carrying a signature (which a rewrite would break).
public enum RewriteDialect: Sendable, Hashable {
    /// Qiniu `imageView2` / `imageMogr2` processing, or bucket styles.
    case qiniu(QiniuOptions)
    /// The URL rules of the Objective-C app this project replaces, minus its
    /// known defects, so that a migrating app keeps its styles and cache keys.
    case qiniuLegacy
    /// Tencent Cloud CI `imageMogr2` (it also understands Qiniu's grammar).
    case tencentCI(TencentCIOptions)
    /// Aliyun OSS `x-oss-process`, Huawei OBS `x-image-process`, Baidu BOS `x-bce-process`.
    case aliyunOSS(AliyunOSSOptions)
    /// Cloudinary path transformations (`/image/upload/…/f_webp/…`).
    case cloudinary
    /// imgix query parameters (`fm=webp`).
    case imgix
    /// Cloudflare Image Resizing (`/cdn-cgi/image/format=webp/…`).
    case cloudflare
    /// thumbor unsigned (`/unsafe/…`) URLs.
    case thumbor(ThumborOptions)
    /// A user-given pattern with `{scheme}`, `{host}`, `{path}`, `{query}`,
    /// `{width}` and `{quality}` placeholders.
    case template(String)

    /// The name used in JSON configuration and `--preset`, e.g. `tencent-ci`.
    public var name: String {
        switch self {
        case .qiniu: "qiniu"
        case .qiniuLegacy: "qiniu-legacy"
        case .tencentCI: "tencent-ci"
        case .aliyunOSS: "aliyun-oss"
        case .cloudinary: "cloudinary"
        case .imgix: "imgix"
        case .cloudflare: "cloudflare"
        case .thumbor: "thumbor"
        case .template: "template"
        }
    }

    /// Every dialect name, in documentation order.
    public static let allNames = [
        "qiniu", "qiniu-legacy", "tencent-ci", "aliyun-oss", "cloudinary", "imgix", "cloudflare", "thumbor", "template",
    ]
}
