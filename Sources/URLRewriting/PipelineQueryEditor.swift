/// Asks a Qiniu-grammar query for WebP: edits an existing pipeline, appends a
/// step to one that has no formattable step, or puts a new pipeline first.
/// Shared by the Qiniu and Tencent CI dialects.
struct PipelineQueryEditor: Sendable {
    /// The step added when the URL has none, e.g. `imageView2/2/w/750/format/webp/ignore-error/1`.
    let newStep: String
    private let addedDetail: String
    private let appendedDetail: String

    init(newStep: String) {
        self.newStep = newStep
        addedDetail = "added \(newStep)"
        appendedDetail = "appended \(newStep) to the pipeline"
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        guard let query = url.query, !query.isEmpty else {
            return .rewritten(url.replacing(query: newStep), detail: addedDetail)
        }
        var items = RawQuery.items(query)
        if let index = items.firstIndex(where: QiniuPipeline.isPipeline) {
            let detail: String
            switch QiniuPipeline.requestWebP(in: items[index]) {
            case .edited(let item, let what):
                items[index] = item[...]
                detail = what
            case .alreadyWebP(let what):
                return .alreadyWebP(what)
            case .metadata(let what):
                return .notRewritable(what)
            case .needsStep:
                items[index] = (items[index] + QiniuPipeline.separator + newStep)[...]
                detail = appendedDetail
            }
            return .rewritten(url.replacing(query: items.joined(separator: "&")), detail: detail)
        }
        return .rewritten(url.replacing(query: newStep + "&" + query), detail: addedDetail)
    }
}
