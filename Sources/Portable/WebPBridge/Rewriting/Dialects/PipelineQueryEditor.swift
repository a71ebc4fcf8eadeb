/// Asks a Qiniu-grammar query for WebP: edits an existing pipeline, appends a
/// step to one that has no formattable step, or puts a new pipeline first.
/// Shared by the Qiniu and Tencent CI dialects.
struct PipelineQueryEditor: Sendable {
    /// Qiniu and Tencent CI spell it the same way.
    static let formatSpelling = FormatSpelling(webP: "format/webp", avif: "format/avif", inQuery: true)

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
        var pipeline: Substring?
        RawQuery.forEachItem(in: query) { item in
            guard QiniuPipeline.isPipeline(item) else { return false }
            pipeline = item
            return true
        }
        guard let pipeline else {
            return .rewritten(url.replacing(query: newStep + "&" + query), detail: addedDetail)
        }
        let newItem: String
        let detail: String
        switch QiniuPipeline.requestWebP(in: pipeline) {
        case .edited(let item, let what):
            newItem = item
            detail = what
        case .alreadyWebP(let what):
            return .alreadyWebP(what)
        case .alreadyAVIF(let what):
            return .alreadyAVIF(what)
        case .metadata(let what), .unreadable(let what):
            return .notRewritable(what)
        case .needsStep:
            newItem = pipeline + QiniuPipeline.separator + newStep
            detail = appendedDetail
        }
        // Splice the edited item in place: the other items keep their bytes and order.
        var newQuery = String(query[query.startIndex..<pipeline.startIndex])
        newQuery += newItem
        newQuery += query[pipeline.endIndex...]
        return .rewritten(url.replacing(query: newQuery), detail: detail)
    }
}
