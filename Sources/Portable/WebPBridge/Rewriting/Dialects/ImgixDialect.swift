/// imgix: `?w=750&fm=webp&q=75`; `auto=format` already negotiates WebP.
///
/// Left to the CDN where the rule asks (docs.imgix.com/apis/rendering/auto,
/// docs.imgix.com/apis/rendering/format/ch): `auto=format` instead of
/// `fm=webp`, `auto=compress,format` for an automatic quality (compress
/// alone would serve a still as JPEG or PNG), `ch=Width,DPR` with the rule's
/// `w` as the width for a client that sends no hints.
struct ImgixDialect: DialectRewriting {
    let width: Int?
    let quality: Int?
    let automatic: AutomaticRequests

    init(width: Int?, quality: Int?, automatic: AutomaticRequests = AutomaticRequests()) {
        self.width = width
        self.quality = quality
        self.automatic = automatic
    }

    /// `fm=avif`: docs.imgix.com/apis/rendering/format/fm.
    var formatSpelling: FormatSpelling? { FormatSpelling(webP: "fm=webp", avif: "fm=avif", inQuery: true) }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        guard let query = url.query, !query.isEmpty else {
            let added = addedItems(existing: []).joined(separator: "&")
            return .rewritten(url.replacing(query: added), detail: "added \(added)")
        }
        var items = RawQuery.items(query)
        let names = items.map(RawQuery.name(of:))
        if names.contains("s") { return .signed("signed URL (s=)") }
        for (offset, name) in names.enumerated() where name == "auto" {
            let values = (RawQuery.value(of: items[offset]) ?? "").split(whereSeparator: { $0 == "," || $0 == "%" })
            if values.contains("format") { return .alreadyWebP("auto=format negotiates WebP") }
        }
        if let index = names.lastIndex(of: "fm") {
            let value = RawQuery.value(of: items[index]) ?? ""
            if RawQuery.lowercasedASCII(value) == "webp" { return .alreadyWebP("fm=webp") }
            if RawQuery.lowercasedASCII(value) == "avif" { return .alreadyAVIF("fm=avif") }
            if !automatic.format {
                items[index] = "fm=webp"
                return .rewritten(
                    url.replacing(query: items.joined(separator: "&")), detail: "replaced fm=\(value) with fm=webp")
            }
            // The CDN chooses: the explicit format goes, auto=format comes.
            items.remove(at: index)
            let kept = Set(items.map(RawQuery.name(of:)))
            let added = addedItems(existing: kept).joined(separator: "&")
            let rest = items.joined(separator: "&")
            return .rewritten(
                url.replacing(query: rest.isEmpty ? added : rest + "&" + added),
                detail: "replaced fm=\(value) with \(added)")
        }
        let added = addedItems(existing: Set(names)).joined(separator: "&")
        return .rewritten(url.replacing(query: query + "&" + added), detail: "added \(added)")
    }

    private func addedItems(existing: Set<Substring>) -> [String] {
        var items: [String] = []
        if let width, !existing.contains("w") { items.append("w=\(width)") }
        if automatic.widthFromClient, !existing.contains("ch") { items.append("ch=Width,DPR") }
        if automatic.format {
            items.append(automatic.quality == nil ? "auto=format" : "auto=compress,format")
        } else {
            items.append("fm=webp")
        }
        if let quality, !existing.contains("q") { items.append("q=\(quality)") }
        return items
    }
}
