/// Cloudflare Image Resizing:
/// `/cdn-cgi/image/width=750,format=webp,onerror=redirect/uploads/photo.jpg`
/// (options comma-separated, the source path or absolute URL follows as is).
struct CloudflareDialect: DialectRewriting {
    static let prefix = "/cdn-cgi/image/"

    /// `width=750,quality=75,format=webp,onerror=redirect` (`width=auto`,
    /// `format=auto` where the rule leaves them to the CDN:
    /// developers.cloudflare.com/images/transform-images/transform-via-url/).
    let newOptions: String
    /// `format=webp` or `format=auto`.
    let format: String
    private let addedDetail: String

    /// A GIF needs nothing more: "Save animations as GIF or animated WebP",
    /// `anim` true by default (developers.cloudflare.com/images/transform-images/).
    init(width: Int?, quality: Int?, automatic: AutomaticRequests = AutomaticRequests()) {
        var options: [String] = []
        if automatic.widthFromClient {
            options.append("width=auto")
        } else if let width {
            options.append("width=\(width)")
        }
        if let quality { options.append("quality=\(quality)") }
        format = automatic.format ? "format=auto" : "format=webp"
        options += [format, "onerror=redirect"]
        newOptions = options.joined(separator: ",")
        addedDetail = "added /cdn-cgi/image/\(newOptions)"
    }

    /// `format=avif`: developers.cloudflare.com/images/transform-images/transform-via-url/.
    var formatSpelling: FormatSpelling? { FormatSpelling(webP: "format=webp", avif: "format=avif", inQuery: false) }

    func sourcePath(of url: URLParts) -> Substring {
        guard let (_, source) = Self.split(url.path) else { return url.path }
        return source
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        if RawQuery.containsItem(in: url.query, namedAnyOf: ["sig"]) { return .signed("signed URL (sig=)") }
        guard let (options, source) = Self.split(url.path) else {
            return .rewritten(
                url.replacing(path: Self.prefix + newOptions + url.path), detail: addedDetail)
        }
        var list = options.splitBytes(UInt8(ascii: ","))
        if let index = list.lastIndex(where: { $0.hasBytePrefix("format=") || $0.hasBytePrefix("f=") }) {
            let value = list[index].drop(while: { $0 != "=" }).dropFirst()
            if value == "webp" { return .alreadyWebP("format=webp") }
            if value == "avif" { return .alreadyAVIF("format=avif") }
            if value == "auto" { return .alreadyWebP("format=auto negotiates WebP") }
            list[index] = format[...]
        } else {
            list.append(format[...])
        }
        return .rewritten(
            url.replacing(path: Self.prefix + list.joined(separator: ",") + source),
            detail: "set \(format) in the options")
    }

    /// The options and the source path (from its `/`) of a `/cdn-cgi/image/` path.
    static func split(_ path: Substring) -> (options: Substring, source: Substring)? {
        guard path.hasBytePrefix(prefix) else { return nil }
        let afterPrefix = path.dropFirst(prefix.utf8.count)
        guard let slash = afterPrefix.firstIndex(ofByte: UInt8(ascii: "/")) else { return nil }
        return (afterPrefix[..<slash], afterPrefix[slash...])
    }
}
