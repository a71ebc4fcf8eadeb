/// Tencent Cloud CI: `?imageMogr2/thumbnail/750x/format/webp/quality/75`; it
/// also understands Qiniu's `imageView2` grammar and `|` pipelines, so an
/// existing pipeline is edited the Qiniu way.
struct TencentCIDialect: DialectRewriting {
    let pipeline: PipelineQueryEditor

    init(options: TencentCIOptions, width: Int?, quality: Int?) {
        var step = "imageMogr2"
        if let width { step += "/thumbnail/\(width)x" }
        step += "/format/webp"
        if let quality { step += "/quality/\(quality)" }
        if options.ignoreError { step += "/ignore-error/1" }
        pipeline = PipelineQueryEditor(newStep: step)
    }

    /// `imageMogr2/format/avif`: cloud.tencent.com/document/product/436/44883.
    var formatSpelling: FormatSpelling? { PipelineQueryEditor.formatSpelling }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        if RawQuery.containsItem(in: url.query, namedAnyOf: ["q-sign-algorithm", "sign"]) {
            return .signed("signed URL (q-sign-algorithm)")
        }
        return pipeline.rewrite(url)
    }
}
