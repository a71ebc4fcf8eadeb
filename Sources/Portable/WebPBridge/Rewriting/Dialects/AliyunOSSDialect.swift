import Foundation

/// Aliyun OSS `?x-oss-process=image/resize,w_750/quality,Q_75/format,webp`
/// and its look-alikes (Huawei OBS `x-image-process`, Baidu BOS
/// `x-bce-process`): actions separated by `/`, parameters by `,`, format last.
struct AliyunOSSDialect: DialectRewriting {
    static let signatureItems: Set<String> = [
        "ossaccesskeyid", "signature", "x-oss-signature", "x-oss-credential", "accesskeyid", "authorization",
    ]

    let parameter: String
    /// `format,webp` (`format,f_webp` on BOS).
    let formatAction: String
    /// The whole processing added to a URL without one.
    let newValue: String
    /// `x-oss-process=image/…/format,webp`, and the explanations, built once.
    private let newItem: String
    private let addedDetail: String
    private let formatLastDetail: String

    /// `automatic.format` only for Baidu BOS (`format,f_auto`, picked by
    /// `Accept`: intl.cloud.baidu.com/doc/BOS/s/Akdzs4xua-en); ``CompiledRule``
    /// refuses it for the others.
    init(options: AliyunOSSOptions, width: Int?, quality: Int?, automatic: AutomaticRequests = AutomaticRequests()) {
        parameter = options.parameter.rawValue
        var actions: [String] = []
        switch options.parameter {
        case .ossProcess:
            if let width { actions.append("resize,w_\(width)") }
            if let quality { actions.append("quality,Q_\(quality)") }
            formatAction = "format,webp"
        case .imageProcess:
            if let width { actions.append("resize,w_\(width)") }
            if let quality { actions.append("quality,q_\(quality)") }
            formatAction = "format,webp"
        case .bceProcess:
            if let width { actions.append("resize,m_lfit,w_\(width)") }
            if let quality { actions.append("quality,q_\(quality)") }
            formatAction = automatic.format ? "format,f_auto" : "format,f_webp"
        }
        actions.append(formatAction)
        newValue = "image/" + actions.joined(separator: "/")
        newItem = "\(parameter)=\(newValue)"
        addedDetail = "added \(newItem)"
        formatLastDetail = "set \(formatAction) last in \(parameter)"
    }

    /// Aliyun OSS documents `format,avif` as its "advanced compression"
    /// (alibabacloud.com/help/en/oss/user-guide/advanced-compression-of-heif-or-avif-images;
    /// offered in some regions only) and Baidu BOS `format,f_avif`
    /// (cloud.baidu.com/doc/BOS/s/dldh5wp4s); Huawei OBS lists JPG, PNG, BMP
    /// and WebP as targets, so its rules cannot ask for AVIF.
    var formatSpelling: FormatSpelling? {
        switch AliyunOSSOptions.Parameter(rawValue: parameter) {
        case .ossProcess: FormatSpelling(webP: "format,webp", avif: "format,avif", inQuery: true)
        case .bceProcess: FormatSpelling(webP: "format,f_webp", avif: "format,f_avif", inQuery: true)
        case .imageProcess, nil: nil
        }
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        if RawQuery.containsItem(in: url.query, namedAnyOf: Self.signatureItems) {
            return .signed("signed URL (Signature / x-oss-signature)")
        }
        guard let query = url.query, !query.isEmpty else {
            return .rewritten(url.replacing(query: newItem), detail: addedDetail)
        }
        var items = RawQuery.items(query)
        guard let index = items.firstIndex(where: { RawQuery.name(of: $0) == parameter }) else {
            return .rewritten(
                url.replacing(query: query + "&" + newItem), detail: addedDetail)
        }
        let raw = RawQuery.value(of: items[index]) ?? ""
        let value = raw.contains("%") ? (String(raw).removingPercentEncoding ?? String(raw)) : String(raw)
        if value.hasPrefix("style/") {
            return .notRewritable("\(parameter)=style/…: the style decides the format")
        }
        guard value.hasPrefix("image/") else {
            return .notRewritable("\(parameter) is not image processing")
        }
        var actions = value.dropFirst("image/".count).splitBytes(UInt8(ascii: "/")).filter { !$0.isEmpty }.map(
            String.init)
        if let formatIndex = actions.firstIndex(where: { $0.hasPrefix("format,") }) {
            let format = RawQuery.lowercasedASCII(actions[formatIndex].dropFirst("format,".count))
            if format == "webp" || format == "f_webp" { return .alreadyWebP("\(parameter) has format,\(format)") }
            if format == "avif" || format == "f_avif" { return .alreadyAVIF("\(parameter) has format,\(format)") }
            if format == "f_auto" || format == "auto" {
                return .alreadyWebP("\(parameter) has format,\(format) (negotiated by Accept)")
            }
            // Every format action goes, not only the first: a second one
            // would otherwise be found first next time and the URL rewritten again.
            actions.removeAll { $0.hasPrefix("format,") }
        }
        actions.append(formatAction)
        let newItem = "\(parameter)=image/" + actions.joined(separator: "/")
        items[index] = newItem[...]
        return .rewritten(url.replacing(query: items.joined(separator: "&")), detail: formatLastDetail)
    }
}
