/// What a dialect's CDN documents beyond "this URL in WebP": animated WebP
/// from a GIF, a quality or format chosen by the CDN, a width from the
/// client's hints. A rule asking for anything its CDN does not document is
/// refused at load (``CompiledRule``), naming the field; each `true` below
/// cites the page it rests on.
struct DialectCapabilities: Sendable {
    /// Animated WebP from an animated GIF, so a rule may set `gif`.
    var animatedWebPFromGIF = false
    /// The automatic qualities the CDN names.
    var automaticQualities: Set<AutomaticQuality> = []
    /// Whether an automatic quality needs the automatic format too (imgix:
    /// `auto=compress` alone serves a still as JPEG or PNG, over `fm=webp`).
    var automaticQualityNeedsAutomaticFormat = false
    /// A format negotiated by `Accept` from the URL.
    var automaticFormat = false
    /// A width (and pixel ratio) from the client's hints.
    var widthFromClient = false
    /// Whether such a width can name a fallback for a client without hints.
    var fallbackWidth = false
}

extension RewriteDialect {
    /// What this dialect's CDN documents (see ``DialectCapabilities``).
    var capabilities: DialectCapabilities {
        switch self {
        case .qiniu:
            // imageMogr2 takes GIF input (at most 200 frames, "超过200,处理结果只返回原图")
            // and `format/webp`: developer.qiniu.com/docs/v6/api/reference/fop/image/imagemogr2.html;
            // Qiniu's FAQ treats GIF to WebP with imageMogr2 (developer.qiniu.com/faq?space=dora).
            // The origin here answers `format/webp` on a GIF with an animated WebP.
            DialectCapabilities(animatedWebPFromGIF: true)
        case .tencentCI:
            // "Animated image formats such as GIF, WebP, and TPG can be
            // interconverted": tencentcloud.com/document/product/1045/33716;
            // GIF to WebP, at most 300 frames: tencentcloud.com/zh/document/api/1045/42361.
            DialectCapabilities(animatedWebPFromGIF: true)
        case .aliyunOSS(let options):
            // Aliyun OSS and Huawei OBS document no format chosen by Accept and
            // no animated WebP from a GIF (OSS: "GIF图不支持quality" — a GIF
            // with quality comes back still: help.aliyun.com/document_detail/311238.html).
            // Baidu BOS: `format,f_auto` picks WebP by Accept and answers
            // `Vary: Accept`: intl.cloud.baidu.com/doc/BOS/s/Akdzs4xua-en.
            DialectCapabilities(automaticFormat: options.parameter == .bceProcess)
        case .cloudinary:
            // `fl_awebp`: "When converting animated images to WebP format, generate
            // an animated WebP from all the frames" (cloudinary.com/documentation/
            // sdks/js/url-gen/Qualifiers.Flag.html; cloudinary.com/documentation/animated_images);
            // `q_auto`, `q_auto:best|good|eco|low` (cloudinary.com/documentation/sdks/
            // dart/url-gen/transformation_delivery_delivery_actions/Quality/autoEco.html); `f_auto`
            // (cloudinary.com/blog/adaptive_browser_based_image_format_delivery);
            // `w_auto`, `dpr_auto` from Sec-CH-Width / Sec-CH-DPR
            // (cloudinary.com/documentation/responsive_server_side_client_hints).
            DialectCapabilities(
                animatedWebPFromGIF: true, automaticQualities: Set(AutomaticQuality.allCases), automaticFormat: true,
                widthFromClient: true, fallbackWidth: true)
        case .imgix:
            // `auto=compress` (q 45) and `auto=format` (AVIF, else WebP, else the
            // source by Accept); compress alone overrides `fm` for stills with JPEG
            // or PNG: docs.imgix.com/apis/rendering/auto. `ch=Width,DPR`, with `w`
            // used when the browser sends no hints: docs.imgix.com/apis/rendering/format/ch.
            // Animated GIFs: GIF parameters and video output only
            // (docs.imgix.com/apis/rendering/animation), no animated WebP.
            DialectCapabilities(
                automaticQualities: [.standard], automaticQualityNeedsAutomaticFormat: true, automaticFormat: true,
                widthFromClient: true, fallbackWidth: true)
        case .cloudflare:
            // "Save animations as GIF or animated WebP", `anim` true by default
            // (developers.cloudflare.com/images/transform-images/); `format=auto`,
            // `width=auto` (Chromium's hints; no fallback named) and `quality` as a
            // number or a fixed perceptual level, none per image
            // (developers.cloudflare.com/images/transform-images/transform-via-url/).
            DialectCapabilities(animatedWebPFromGIF: true, automaticFormat: true, widthFromClient: true)
        case .template:
            // The pattern is the user's: it may ask for anything; GIFs are theirs to enable.
            DialectCapabilities(animatedWebPFromGIF: true)
        case .qiniuLegacy, .thumbor:
            // The legacy app never converted GIFs; thumbor documents neither
            // animated WebP from a GIF nor automatic quality, format or width in a URL.
            DialectCapabilities()
        }
    }
}
