import Foundation
import TestTraits
import Testing
import WebPBridge

/// The worked examples of CDN-GRAMMARS.md, one table per dialect, plus each
/// dialect's signed and already-WebP URLs.
@Suite(.timeLimit(.suiteBound)) struct DialectExampleTests {
    static let qiniuNoWidth = Rules.rule(.qiniu(QiniuOptions()), width: nil)
    static let qiniuQuality = Rules.rule(.qiniu(QiniuOptions()), quality: 75)
    static let qiniuStyles = QiniuOptions(styles: [
        "thumb": "imageView2/1/w/200/h/200",
        "thumbWebP": "imageView2/1/w/200/h/200/format/webp",
        "WebPiOSW750": "imageView2/2/w/750/format/webp",
        "big": "imageMogr2/thumbnail/1500x",
    ])
    static let qiniuStyled = Rules.rule(.qiniu(qiniuStyles))
    static let qiniuStylesOnly: RewriteRule = {
        var options = qiniuStyles
        options.stylesOnly = true
        return Rules.rule(.qiniu(options))
    }()

    static let qiniuExamples: [RewriteExample] = [
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg",
            "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1"),
        .rewrites(
            qiniuNoWidth, "http://img.example.com/a.jpg",
            "http://img.example.com/a.jpg?imageView2/0/format/webp/ignore-error/1"),
        .rewrites(
            qiniuQuality, "https://img.example.com/a.png",
            "https://img.example.com/a.png?imageView2/2/w/750/format/webp/q/75/ignore-error/1"),
        .rewrites(
            Rules.rule(.qiniu(QiniuOptions(mode: 0, ignoreError: false))), "http://img.example.com/a.jpg",
            "http://img.example.com/a.jpg?imageView2/0/w/750/format/webp"),
        // Replace an existing format.
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageView2/1/w/200/h/200/format/jpg/interlace/1/q/80",
            "http://img.example.com/a.jpg?imageView2/1/w/200/h/200/format/webp/interlace/1/q/80"),
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageMogr2/auto-orient/thumbnail/750x/format/png/quality/80",
            "http://img.example.com/a.jpg?imageMogr2/auto-orient/thumbnail/750x/format/webp/quality/80"),
        // Add format/webp into the existing fop, before the parameters that follow it.
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageView2/1/w/200/h/200",
            "http://img.example.com/a.jpg?imageView2/1/w/200/h/200/format/webp"),
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageView2/2/w/200/q/80/ignore-error/1",
            "http://img.example.com/a.jpg?imageView2/2/w/200/format/webp/q/80/ignore-error/1"),
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageMogr2/auto-orient/thumbnail/!50p/quality/80/ignore-error/1",
            "http://img.example.com/a.jpg?imageMogr2/auto-orient/thumbnail/!50p/format/webp/quality/80/ignore-error/1"),
        // Pipelines: edit the formattable step; otherwise add a step with `|`.
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageView2/1/w/200%7Cwatermark/2/text/aGk=",
            "http://img.example.com/a.jpg?imageView2/1/w/200/format/webp%7Cwatermark/2/text/aGk="),
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?watermark/2/text/aGk=",
            "http://img.example.com/a.jpg?watermark/2/text/aGk=%7CimageView2/2/w/750/format/webp/ignore-error/1"),
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?imageslim",
            "http://img.example.com/a.jpg?imageslim%7CimageView2/2/w/750/format/webp/ignore-error/1"),
        // Other query items stay; the processing goes first.
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?v=3",
            "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp/ignore-error/1&v=3"),
        .rewrites(
            Rules.qiniu, "http://img.example.com/a.jpg?attname=x&imageView2/1/w/200",
            "http://img.example.com/a.jpg?attname=x&imageView2/1/w/200/format/webp"),
        // Styles: a style with a WebP twin is swapped for it.
        .rewrites(qiniuStyled, "http://img.example.com/photo.jpg-thumb", "http://img.example.com/photo.jpg-thumbWebP"),
        .keeps(qiniuStyled, "http://img.example.com/photo.jpg-thumbWebP", .alreadyWebP),
        .keeps(qiniuStyled, "http://img.example.com/photo.jpg-WebPiOSW750", .alreadyWebP),
        .keeps(qiniuStyled, "http://img.example.com/photo.jpg-big", .notRewritable),
        .rewrites(
            qiniuStyled, "http://img.example.com/photo.jpg",
            "http://img.example.com/photo.jpg?imageView2/2/w/750/format/webp/ignore-error/1"),
        // A bucket that accepts only styles gets the style that asks for WebP at the width.
        .rewrites(qiniuStylesOnly, "http://img.example.com/photo.jpg", "http://img.example.com/photo.jpg-WebPiOSW750"),
        .rewrites(
            qiniuStylesOnly, "http://img.example.com/photo.jpg?v=2",
            "http://img.example.com/photo.jpg-WebPiOSW750?v=2"),
        .keeps(qiniuStylesOnly, "http://img.example.com/photo.jpg-WebPiOSW750", .alreadyWebP),
        .keeps(qiniuStylesOnly, "http://img.example.com/photo.jpg-unknown", .notRewritable),
        // Already WebP, signed, metadata.
        .keeps(Rules.qiniu, "http://img.example.com/a.jpg?imageView2/0/format/webp", .alreadyWebP),
        .keeps(Rules.qiniu, "http://img.example.com/a.jpg?imageMogr2/format/WEBP", .alreadyWebP),
        .keeps(
            Rules.qiniu, "http://img.example.com/a.jpg?imageView2/1/w/200&e=1700000000&token=AK:c2lnbmF0dXJl", .signed),
        .keeps(Rules.qiniu, "http://img.example.com/a.jpg?e=1700000000&token=AK:c2ln", .signed),
        .keeps(Rules.qiniu, "http://img.example.com/a.jpg?imageInfo", .notRewritable),
        .keeps(Rules.qiniu, "http://img.example.com/a.jpg?exif", .notRewritable),
        .keeps(Rules.qiniu, "http://img.example.com/a.webp", .alreadyWebP),
    ]

    static let legacyExamples: [RewriteExample] = [
        // Without a query: the style suffix, http:// intact (the legacy defect collapsed it to http:/).
        .rewrites(Rules.qiniuLegacy, "http://img.host.com/a/b.jpg", "http://img.host.com/a/b.jpg-WebPiOSW750"),
        .rewrites(Rules.qiniuLegacy, "https://img.host.com/a/b.png", "https://img.host.com/a/b.png-WebPiOSW750"),
        .rewrites(Rules.qiniuLegacy, "http://img.host.com/a/b.jpg-thumb", "http://img.host.com/a/b.jpg-WebPiOSW750"),
        .rewrites(Rules.qiniuLegacy, "http://img.host.com/a/B.JPEG", "http://img.host.com/a/B.JPEG-WebPiOSW750"),
        .rewrites(
            Rules.rule(.qiniuLegacy, host: "img.host.com", width: 1125), "http://img.host.com/b.jpg",
            "http://img.host.com/b.jpg-WebPiOSW1125"),
        // With a query: format/jpg → format/webp, else a pipeline step joined with | (not /).
        .rewrites(
            Rules.qiniuLegacy, "http://img.host.com/a.jpg?imageView2/1/w/200/format/jpg",
            "http://img.host.com/a.jpg?imageView2/1/w/200/format/webp"),
        .rewrites(
            Rules.qiniuLegacy, "http://img.host.com/a.jpg?imageView2/1/w/200",
            "http://img.host.com/a.jpg?imageView2/1/w/200%7CimageView2/0/format/webp/ignore-error/1"),
        .rewrites(
            Rules.qiniuLegacy, "http://img.host.com/a.jpg?",
            "http://img.host.com/a.jpg?imageView2/0/format/webp/ignore-error/1"),
        .rewrites(
            Rules.qiniuLegacy, "http://img.host.com/a.jpg?v=2",
            "http://img.host.com/a.jpg?imageView2/0/format/webp/ignore-error/1&v=2"),
        // Already WebP by the legacy test (-webp or /webp anywhere in path or query).
        .keeps(Rules.qiniuLegacy, "http://img.host.com/a/b.jpg-WebPiOSW750", .alreadyWebP),
        .keeps(Rules.qiniuLegacy, "http://img.host.com/webp/b.jpg", .alreadyWebP),
        .keeps(Rules.qiniuLegacy, "http://img.host.com/b.jpg?imageView2/0/format/webp", .alreadyWebP),
        .keeps(Rules.qiniuLegacy, "http://img.host.com/b.jpg?imageView2/0/format/jpg&e=1&token=AK:x", .signed),
        // The legacy defects are not reproduced.
        .keeps(Rules.qiniuLegacy, "http://img.host.com.evil.example/a.jpg", .noRuleForHost),
        .keeps(Rules.qiniuLegacy, "http://evil.example/img.host.com/a.jpg", .noRuleForHost),
        .keeps(Rules.qiniuLegacy, "http://img.host.com/a.jpgx/b.gif", .gifNotEnabled),
        .keeps(Rules.qiniuLegacy, "http://img.host.com/a.jpgx", .notAnImage),
    ]

    static let tencentExamples: [RewriteExample] = [
        .rewrites(
            Rules.rule(.tencentCI(TencentCIOptions()), width: nil), "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?imageMogr2/format/webp/ignore-error/1"),
        .rewrites(
            Rules.rule(.tencentCI(TencentCIOptions(ignoreError: false)), quality: 75), "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?imageMogr2/thumbnail/750x/format/webp/quality/75"),
        .rewrites(
            Rules.rule(.tencentCI(TencentCIOptions()), quality: 75), "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?imageMogr2/thumbnail/750x/format/webp/quality/75/ignore-error/1"),
        // Qiniu's grammar and pipelines are understood too.
        .rewrites(
            Rules.tencent, "https://img.example.com/a.jpg?imageView2/2/w/300",
            "https://img.example.com/a.jpg?imageView2/2/w/300/format/webp"),
        .rewrites(
            Rules.tencent, "https://img.example.com/a.jpg?imageMogr2/thumbnail/300x/format/jpg",
            "https://img.example.com/a.jpg?imageMogr2/thumbnail/300x/format/webp"),
        .keeps(Rules.tencent, "https://img.example.com/a.jpg?imageMogr2/format/webp/ignore-error/1", .alreadyWebP),
        .keeps(
            Rules.tencent,
            "https://img.example.com/a.jpg?q-sign-algorithm=sha1&q-ak=AKID&q-sign-time=1;2&q-key-time=1;2"
                + "&q-header-list=&q-url-param-list=&q-signature=abc",
            .signed),
    ]

    static let aliyunExamples: [RewriteExample] = [
        .rewrites(
            Rules.rule(.aliyunOSS(AliyunOSSOptions()), quality: 75), "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?x-oss-process=image/resize,w_750/quality,Q_75/format,webp"),
        .rewrites(
            Rules.rule(.aliyunOSS(AliyunOSSOptions()), width: nil), "https://img.example.com/a.jpg?v=1",
            "https://img.example.com/a.jpg?v=1&x-oss-process=image/format,webp"),
        // Format goes last; an existing one is replaced.
        .rewrites(
            Rules.aliyun, "https://img.example.com/a.jpg?x-oss-process=image/format,jpg/resize,w_100",
            "https://img.example.com/a.jpg?x-oss-process=image/resize,w_100/format,webp"),
        .rewrites(
            Rules.aliyun, "https://img.example.com/a.jpg?x-oss-process=image/resize,w_100/quality,q_80",
            "https://img.example.com/a.jpg?x-oss-process=image/resize,w_100/quality,q_80/format,webp"),
        .rewrites(
            Rules.rule(.aliyunOSS(AliyunOSSOptions(parameter: .imageProcess)), width: nil),
            "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?x-image-process=image/format,webp"),
        .rewrites(
            Rules.rule(.aliyunOSS(AliyunOSSOptions(parameter: .bceProcess)), quality: 80),
            "https://img.example.com/a.jpg",
            "https://img.example.com/a.jpg?x-bce-process=image/resize,m_lfit,w_750/quality,q_80/format,f_webp"),
        .keeps(
            Rules.aliyun, "https://img.example.com/a.jpg?x-oss-process=image/resize,w_750/format,webp", .alreadyWebP),
        .keeps(
            Rules.rule(.aliyunOSS(AliyunOSSOptions(parameter: .bceProcess))),
            "https://img.example.com/a.jpg?x-bce-process=image/format,f_auto", .alreadyWebP),
        .keeps(Rules.aliyun, "https://img.example.com/a.jpg?x-oss-process=style/thumb", .notRewritable),
        .keeps(
            Rules.aliyun, "https://img.example.com/a.jpg?OSSAccessKeyId=AK&Expires=1700000000&Signature=c2ln%3D",
            .signed),
        .keeps(
            Rules.aliyun, "https://img.example.com/a.jpg?x-oss-signature-version=OSS4-HMAC-SHA256&x-oss-signature=abc",
            .signed),
    ]

    static let cloudinaryExamples: [RewriteExample] = [
        .rewrites(
            Rules.rule(.cloudinary, host: "res.cloudinary.com", quality: 75),
            "https://res.cloudinary.com/demo/image/upload/v123/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/w_750,c_limit,f_webp,q_75/v123/sample.jpg"),
        .rewrites(
            Rules.rule(.cloudinary, host: "res.cloudinary.com", width: nil),
            "https://res.cloudinary.com/demo/image/fetch/https://example.com/photo.jpg",
            "https://res.cloudinary.com/demo/image/fetch/f_webp/https://example.com/photo.jpg"),
        .rewrites(
            Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/w_200,c_fill/sample.png",
            "https://res.cloudinary.com/demo/image/upload/w_200,c_fill,f_webp/sample.png"),
        .rewrites(
            Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/f_png,w_200/e_sepia/sample.png",
            "https://res.cloudinary.com/demo/image/upload/f_webp,w_200/e_sepia/sample.png"),
        .rewrites(
            Rules.rule(.cloudinary, host: "res.cloudinary.com", width: nil),
            "https://res.cloudinary.com/demo/image/upload/my_photos/sample.jpg",
            "https://res.cloudinary.com/demo/image/upload/f_webp/my_photos/sample.jpg"),
        .keeps(Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/w_750,f_webp/sample.jpg", .alreadyWebP),
        .keeps(Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/f_auto/sample.jpg", .alreadyWebP),
        .keeps(Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/v123/sample.webp", .alreadyWebP),
        .keeps(
            Rules.cloudinary, "https://res.cloudinary.com/demo/image/upload/s--Ai4Znfl3--/w_300/sample.jpg", .signed),
        .keeps(
            Rules.cloudinary, "https://res.cloudinary.com/demo/image/authenticated/s--Ai4Znfl3--/sample.jpg", .signed),
        .keeps(Rules.cloudinary, "https://res.cloudinary.com/demo/video/upload/sample.jpg", .notRewritable),
    ]

    static let imgixExamples: [RewriteExample] = [
        .rewrites(
            Rules.rule(.imgix, quality: 75), "https://img.example.com/photo.jpg",
            "https://img.example.com/photo.jpg?w=750&fm=webp&q=75"),
        .rewrites(
            Rules.imgix, "https://img.example.com/photo.jpg?w=300", "https://img.example.com/photo.jpg?w=300&fm=webp"),
        .rewrites(
            Rules.imgix, "https://img.example.com/photo.png?fm=png&w=300",
            "https://img.example.com/photo.png?fm=webp&w=300"),
        .keeps(Rules.imgix, "https://img.example.com/photo.jpg?w=750&fm=webp", .alreadyWebP),
        .keeps(Rules.imgix, "https://img.example.com/photo.jpg?auto=format", .alreadyWebP),
        .keeps(Rules.imgix, "https://img.example.com/photo.jpg?auto=compress,format", .alreadyWebP),
        .keeps(Rules.imgix, "https://img.example.com/photo.jpg?w=300&s=0f1e2d3c4b5a69788796a5b4c3d2e1f0", .signed),
    ]

    static let cloudflareExamples: [RewriteExample] = [
        .rewrites(
            Rules.cloudflare, "https://img.example.com/uploads/photo.jpg",
            "https://img.example.com/cdn-cgi/image/width=750,format=webp,onerror=redirect/uploads/photo.jpg"),
        .rewrites(
            Rules.rule(.cloudflare, width: nil, quality: 75), "https://img.example.com/uploads/photo.jpg",
            "https://img.example.com/cdn-cgi/image/quality=75,format=webp,onerror=redirect/uploads/photo.jpg"),
        .rewrites(
            Rules.cloudflare, "https://img.example.com/cdn-cgi/image/width=300/uploads/photo.jpg",
            "https://img.example.com/cdn-cgi/image/width=300,format=webp/uploads/photo.jpg"),
        .rewrites(
            Rules.cloudflare, "https://img.example.com/cdn-cgi/image/w=300,f=png/uploads/photo.png",
            "https://img.example.com/cdn-cgi/image/w=300,format=webp/uploads/photo.png"),
        .keeps(
            Rules.cloudflare, "https://img.example.com/cdn-cgi/image/width=750,format=webp/uploads/photo.jpg",
            .alreadyWebP),
        .keeps(Rules.cloudflare, "https://img.example.com/cdn-cgi/image/f=auto/uploads/photo.jpg", .alreadyWebP),
        .keeps(Rules.cloudflare, "https://img.example.com/uploads/photo.jpg?exp=1700000000&sig=abc", .signed),
    ]

    static let thumborServer = Rules.rule(
        .thumbor(ThumborOptions(server: "http://thumbor.example.com/")), host: "example.com", quality: 75)

    static let thumborExamples: [RewriteExample] = [
        .rewrites(
            Rules.rule(.thumbor(ThumborOptions()), host: "thumbor.example.com", quality: 75),
            "http://thumbor.example.com/example.com/photo.jpg",
            "http://thumbor.example.com/unsafe/fit-in/750x0/filters:format(webp):quality(75)/example.com/photo.jpg"),
        .rewrites(
            thumborServer, "http://example.com/photo.jpg",
            "http://thumbor.example.com/unsafe/fit-in/750x0/filters:format(webp):quality(75)/example.com/photo.jpg"),
        .rewrites(
            Rules.thumbor, "http://img.example.com/unsafe/300x200/smart/example.com/a.jpg",
            "http://img.example.com/unsafe/300x200/smart/filters:format(webp)/example.com/a.jpg"),
        .rewrites(
            Rules.thumbor, "http://img.example.com/unsafe/300x200/filters:quality(80)/example.com/a.jpg",
            "http://img.example.com/unsafe/300x200/filters:quality(80):format(webp)/example.com/a.jpg"),
        .rewrites(
            Rules.thumbor, "http://img.example.com/unsafe/filters:format(png)/example.com/a.png",
            "http://img.example.com/unsafe/filters:format(webp)/example.com/a.png"),
        .keeps(
            Rules.thumbor, "http://img.example.com/unsafe/fit-in/750x0/filters:format(webp)/example.com/photo.jpg",
            .alreadyWebP),
        .keeps(Rules.thumbor, "http://img.example.com/K3rK5Gnk9OL1lsIRWBT4EZ6xFc0=/300x200/example.com/a.jpg", .signed),
    ]

    static let templateExamples: [RewriteExample] = [
        .rewrites(Rules.template, "http://img.example.com/a.jpg", "http://img.example.com/a.jpg?format=webp&w=750"),
        .rewrites(
            Rules.template, "http://img.example.com/a.jpg?v=1", "http://img.example.com/a.jpg?v=1&format=webp&w=750"),
        .rewrites(
            Rules.rule(.template("https://images.example.net/{host}{path}?q={quality}"), quality: 60),
            "http://img.example.com/a/b.png#top", "https://images.example.net/img.example.com/a/b.png?q=60#top"),
        .keeps(Rules.template, "http://img.example.com/a.jpg?format=webp&w=750", .alreadyWebP),
        .keeps(Rules.template, "http://img.example.com/a.jpg?v=1&format=webp&w=1080", .alreadyWebP),
    ]

    @Test(arguments: qiniuExamples) func qiniu(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: legacyExamples) func qiniuLegacy(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: tencentExamples) func tencentCI(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: aliyunExamples) func aliyunOSS(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: cloudinaryExamples) func cloudinary(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: imgixExamples) func imgix(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: cloudflareExamples) func cloudflare(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: thumborExamples) func thumbor(_ example: RewriteExample) throws { try example.check() }
    @Test(arguments: templateExamples) func template(_ example: RewriteExample) throws { try example.check() }
}
