/// thumbor: `/unsafe/fit-in/750x0/filters:format(webp):quality(75)/example.com/photo.jpg`.
/// Only unsigned (`unsafe`) URLs are produced or edited; a URL whose first
/// segment is an HMAC is signed and left alone.
struct ThumborDialect: DialectRewriting {
    /// `https://thumbor.example.com`, without a trailing slash.
    let server: String?
    /// `fit-in/750x0/` or empty.
    let sizing: String
    /// `filters:format(webp):quality(75)`.
    let filters: String

    init(options: ThumborOptions, width: Int?, quality: Int?, rule: String) throws(RewriteConfigurationError) {
        if var server = options.server {
            while server.hasSuffix("/") { server.removeLast() }
            guard let parts = URLParts(server), parts.scheme == "http" || parts.scheme == "https",
                parts.path.isEmpty || parts.path.hasPrefix("/"), parts.query == nil, parts.fragment == nil
            else {
                throw .invalid(
                    rule: rule, field: "server",
                    "must be an http(s) URL without query, e.g. https://thumbor.example.com")
            }
            self.server = server
        } else {
            self.server = nil
        }
        sizing = width.map { "fit-in/\($0)x0/" } ?? ""
        filters = "filters:format(webp)" + (quality.map { ":quality(\($0))" } ?? "")
    }

    /// `filters:format(avif)`: github.com/thumbor/thumbor/blob/7.7.1/docs/format.rst.
    var formatSpelling: FormatSpelling? { FormatSpelling(webP: "format(webp)", avif: "format(avif)", inQuery: false) }

    func sourcePath(of url: URLParts) -> Substring {
        guard let (_, image) = Self.split(url.path) else { return url.path }
        return url.path[url.path.index(before: image.startIndex)...]
    }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        let path = url.path
        let first = path.dropFirst().prefix(while: { $0 != "/" })
        if first != "unsafe", Self.isSignature(first) { return .signed("signed thumbor URL (HMAC)") }
        guard let (options, image) = Self.split(path) else {
            let added = "/unsafe/" + sizing + filters + "/"
            if let server {
                let source =
                    url.scheme == "https" ? url.string[url.scheme.startIndex..<path.endIndex] : url.hostAndPort + path
                var result = server + added + source
                if let query = url.query { result += "?" + query }
                if let fragment = url.fragment { result += "#" + fragment }
                return .rewritten(result, detail: "sent through \(server)\(added)")
            }
            return .rewritten(url.replacing(path: added + path.dropFirst()), detail: "added \(added)")
        }
        var segments = options
        if let index = segments.firstIndex(where: { $0.hasPrefix("filters:") }) {
            let segment = segments[index]
            if let range = segment.firstRange(of: "format(") {
                let value = segment[range.upperBound...].prefix(while: { $0 != ")" })
                if value == "webp" { return .alreadyWebP("filters:format(webp)") }
                if value == "avif" { return .alreadyAVIF("filters:format(avif)") }
                let end = segment.index(range.upperBound, offsetBy: value.count)
                segments[index] = (segment[..<range.upperBound] + "webp" + segment[end...])[...]
            } else {
                segments[index] = (segment + ":format(webp)")[...]
            }
        } else {
            segments.append("filters:format(webp)")
        }
        let newPath = "/unsafe/" + segments.map { $0 + "/" }.joined() + image
        return .rewritten(url.replacing(path: newPath), detail: "set filters:format(webp)")
    }

    /// The option segments and the image part of an `/unsafe/…` path.
    static func split(_ path: Substring) -> (options: [Substring], image: Substring)? {
        guard path.hasBytePrefix("/unsafe/") else { return nil }
        var rest = path.dropFirst("/unsafe/".count)
        var options: [Substring] = []
        while let slash = rest.firstIndex(ofByte: UInt8(ascii: "/")) {
            let segment = rest[..<slash]
            guard isOption(segment) else { break }
            options.append(segment)
            rest = rest[rest.index(after: slash)...]
        }
        return (options, rest)
    }

    /// Whether a path segment is a thumbor option (trim, crop, fit-in, size,
    /// alignment, smart, filters) rather than the start of the image.
    static func isOption(_ segment: Substring) -> Bool {
        if segment.hasPrefix("filters:") || segment.hasPrefix("trim") { return true }
        if [
            "fit-in", "full-fit-in", "adaptive-fit-in", "adaptive-full-fit-in", "smart", "left", "right", "center",
            "top", "middle", "bottom", "meta", "debug",
        ].contains(segment) {
            return true
        }
        // Size (`750x0`, `-300x-200`, `x400`) or crop (`10x20:300x400`).
        return !segment.isEmpty && segment.contains("x")
            && segment.allSatisfy { $0 == "x" || $0 == "-" || $0 == ":" || ($0.isASCII && $0.isNumber) }
    }

    /// A thumbor HMAC: URL-safe base64 of a SHA-1 digest, 28 characters.
    static func isSignature(_ segment: Substring) -> Bool {
        segment.utf8.count == 28
            && segment.allSatisfy {
                ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" || $0 == "="
            }
    }
}
