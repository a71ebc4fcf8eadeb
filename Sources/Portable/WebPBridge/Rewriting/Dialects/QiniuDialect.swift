/// Qiniu: `imageView2`/`imageMogr2` processing in the query, or bucket styles
/// (`photo.jpg-WebPiOSW750`) when the rule configures them.
struct QiniuDialect: DialectRewriting {
    /// A configured style, parsed once.
    struct Style: Sendable {
        let name: String
        /// `<separator><name>`, the path suffix that selects it.
        let suffix: String
        let outputsWebP: Bool
        let width: Int?
        /// The body without its format and ignore-error parameters: two styles
        /// with the same signature differ only in output format.
        let signature: [[Substring]]
    }

    let pipeline: PipelineQueryEditor
    let styles: [Style]
    let separator: String
    let stylesOnly: Bool
    /// For each non-WebP style, the style that does the same in WebP.
    let webPEquivalent: [String: String]
    /// The style appended to unstyled paths when the bucket accepts only styles.
    let targetStyle: Style?

    init(options: QiniuOptions, width: Int?, quality: Int?, rule: String) throws(RewriteConfigurationError) {
        guard (0...5).contains(options.mode) else {
            throw .invalid(rule: rule, field: "mode", "must be between 0 and 5, got \(options.mode)")
        }
        var step = width.map { "imageView2/\(options.mode)/w/\($0)/format/webp" } ?? "imageView2/0/format/webp"
        if let quality { step += "/q/\(quality)" }
        if options.ignoreError { step += "/ignore-error/1" }
        pipeline = PipelineQueryEditor(newStep: step)
        separator = options.styleSeparator
        stylesOnly = options.stylesOnly
        if !options.styles.isEmpty || options.stylesOnly {
            guard ["-", "_", "!", "/", "~", "@"].contains(options.styleSeparator) else {
                throw .invalid(
                    rule: rule, field: "styleSeparator",
                    "must be one of - _ ! / ~ @, got '\(options.styleSeparator)'")
            }
        }
        var styles: [Style] = []
        for (name, body) in options.styles.sorted(by: { $0.key < $1.key }) {
            let field = "styles.\(name)"
            guard !name.isEmpty, !name.contains(where: { "/?#&".contains($0) || $0 == " " }) else {
                throw .invalid(rule: rule, field: field, "a style name must be non-empty without / ? # & or spaces")
            }
            let text = body.hasPrefix("?") ? body.dropFirst() : body[...]
            guard QiniuPipeline.isPipeline(text) else {
                throw .invalid(
                    rule: rule, field: field,
                    "'\(body)' is not Qiniu processing (expected imageView2/…, imageMogr2/… or a pipeline)")
            }
            var signature: [[Substring]] = []
            var width: Int?
            for range in QiniuPipeline.stepRanges(text) {
                let tokens = text[range].split(separator: "/", omittingEmptySubsequences: false)
                if let stepWidth = QiniuPipeline.width(ofStep: tokens) { width = stepWidth }
                signature.append(Self.signature(of: tokens))
            }
            styles.append(
                Style(
                    name: name, suffix: options.styleSeparator + name,
                    outputsWebP: QiniuPipeline.outputsWebP(text), width: width, signature: signature))
        }
        // Longest suffix first, so that `-thumb-webp` wins over `-webp`.
        self.styles = styles.sorted { $0.suffix.utf8.count > $1.suffix.utf8.count }
        var equivalents: [String: String] = [:]
        for style in styles where !style.outputsWebP {
            if let match = styles.first(where: { $0.outputsWebP && $0.signature == style.signature }) {
                equivalents[style.name] = match.name
            }
        }
        webPEquivalent = equivalents
        targetStyle = styles.first { $0.outputsWebP && $0.width == width }
        if options.stylesOnly, targetStyle == nil {
            let wanted = width.map { "at width \($0)" } ?? "without a width"
            throw .invalid(
                rule: rule, field: "styles",
                "stylesOnly needs a style that asks for WebP \(wanted)"
                    + " (e.g. \"WebPW750\": \"imageView2/2/w/750/format/webp\")")
        }
    }

    /// developer.qiniu.com/dora/api/basic-processing-images-imageview2 lists
    /// avif among imageView2's formats (`/format/<Format>`).
    var formatSpelling: FormatSpelling? { PipelineQueryEditor.formatSpelling }

    func sourcePath(of url: URLParts) -> Substring {
        if let style = style(of: url.path) {
            return url.path.dropLast(style.suffix.count)
        }
        return url.path
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        if QiniuSigning.isSigned(url.query) { return .signed("private URL (e= and token=)") }
        if let style = style(of: url.path) {
            if style.outputsWebP { return .alreadyWebP("style '\(style.name)' asks for WebP") }
            guard let equivalent = webPEquivalent[style.name] else {
                return .notRewritable("no configured style does what '\(style.name)' does in WebP")
            }
            let base = url.path.dropLast(style.suffix.count)
            return .rewritten(
                url.replacing(path: base + separator + equivalent),
                detail: "style '\(style.name)' → '\(equivalent)'")
        }
        guard stylesOnly, let targetStyle else { return pipeline.rewrite(url) }
        if separator != "/", let dot = url.path.lastIndex(ofByte: UInt8(ascii: ".")),
            url.path[dot...].containsBytes(separator)
        {
            return .notRewritable("path ends with an unknown style")
        }
        return .rewritten(
            url.replacing(path: url.path + targetStyle.suffix), detail: "added style '\(targetStyle.name)'")
    }

    private func style(of path: Substring) -> Style? {
        guard !styles.isEmpty else { return nil }
        return styles.first { path.hasByteSuffix($0.suffix) && path.utf8.count > $0.suffix.utf8.count }
    }

    private static func signature(of tokens: [Substring]) -> [Substring] {
        var result: [Substring] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token == "format" || token == "ignore-error", index > 0, index + 1 < tokens.count {
                index += 2
                continue
            }
            result.append(token)
            index += 1
        }
        return result
    }
}
