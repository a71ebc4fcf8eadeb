/// imgix: `?w=750&fm=webp&q=75`; `auto=format` already negotiates WebP.
struct ImgixDialect: DialectRewriting {
    let width: Int?
    let quality: Int?

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
            items[index] = "fm=webp"
            return .rewritten(
                url.replacing(query: items.joined(separator: "&")), detail: "replaced fm=\(value) with fm=webp")
        }
        let added = addedItems(existing: Set(names)).joined(separator: "&")
        return .rewritten(url.replacing(query: query + "&" + added), detail: "added \(added)")
    }

    private func addedItems(existing: Set<Substring>) -> [String] {
        var items: [String] = []
        if let width, !existing.contains("w") { items.append("w=\(width)") }
        items.append("fm=webp")
        if let quality, !existing.contains("q") { items.append("q=\(quality)") }
        return items
    }
}
