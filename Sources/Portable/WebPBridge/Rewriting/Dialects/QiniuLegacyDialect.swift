/// The URL rules of the Objective-C app this project replaces, so that a
/// migrating app keeps its CDN styles (`photo.jpg-WebPiOSW750`) and cache keys.
///
/// Its known defects are not reproduced: hosts and extensions are matched
/// for real by the rule (not as substrings of the URL), `http://` is kept
/// intact, an added step joins an existing pipeline with `|` (`%7C`) instead
/// of `/`, and signed URLs are left alone. PNG-vs-JPEG for transcoding is the
/// bridge's business (decided from the pixels' alpha), not the rewriter's.
struct QiniuLegacyDialect: DialectRewriting {
    static let appendedStep = "imageView2/0/format/webp/ignore-error/1"
    static let addedDetail = "added \(appendedStep)"
    static let appendedDetail = "appended \(appendedStep) to the pipeline"

    /// `-WebPiOSW750`.
    let styleSuffix: String
    private let styleDetail: String
    let pipeline = PipelineQueryEditor(newStep: QiniuLegacyDialect.appendedStep)

    init(width: Int?, rule: String) throws(RewriteConfigurationError) {
        guard let width else {
            throw .invalid(
                rule: rule, field: "width",
                "qiniu-legacy needs the screen width in pixels (points × scale, e.g. 750)"
                    + " for its WebPiOSW<width> style")
        }
        styleSuffix = "-WebPiOSW\(width)"
        styleDetail = "style suffix \(styleSuffix)"
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        if QiniuSigning.isSigned(url.query) { return .signed("private URL (e= and token=)") }
        // The legacy test: "-webp" or "/webp" anywhere (its styles contain "-WebP").
        for part in [url.path, url.query ?? ""] {
            if RawQuery.containsIgnoringCase(part, "-webp") || RawQuery.containsIgnoringCase(part, "/webp") {
                return .alreadyWebP("contains -webp or /webp")
            }
        }
        if let query = url.query {
            if query.containsBytes("format/jpg") {
                return .rewritten(
                    url.replacing(query: String(query.replacing("format/jpg", with: "format/webp"))),
                    detail: "replaced format/jpg with format/webp")
            }
            guard !query.isEmpty else {
                return .rewritten(url.replacing(query: Self.appendedStep), detail: Self.addedDetail)
            }
            var items = RawQuery.items(query)
            if let index = items.firstIndex(where: QiniuPipeline.isPipeline) {
                items[index] = (items[index] + QiniuPipeline.separator + Self.appendedStep)[...]
                return .rewritten(
                    url.replacing(query: items.joined(separator: "&")),
                    detail: Self.appendedDetail)
            }
            return pipeline.rewrite(url)
        }
        // Style branch: `<path without extension>.<extension cut at the first '-'>-WebPiOSW<width>`.
        let path = url.path
        guard let dot = path.lastIndex(ofByte: UInt8(ascii: ".")) else { return .notRewritable("no extension") }
        let afterDot = path[path.index(after: dot)...]
        let ext = afterDot.prefix(while: { $0 != "-" })
        return .rewritten(
            url.replacing(path: path[..<dot] + "." + ext + styleSuffix), detail: styleDetail)
    }
}
