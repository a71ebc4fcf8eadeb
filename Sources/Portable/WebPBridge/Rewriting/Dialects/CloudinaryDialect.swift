/// Cloudinary path transformations:
/// `/demo/image/upload/w_750,c_limit,f_webp,q_75/v123/sample.jpg`, and fetch
/// URLs `/demo/image/fetch/f_webp/https://example.com/photo.jpg`.
struct CloudinaryDialect: DialectRewriting {
    /// Transformation parameter names (`w` in `w_750`), so that a folder such
    /// as `my_photos` is not mistaken for a transformation.
    static let parameterNames: Set<Substring> = [
        "a", "ac", "af", "ar", "b", "bl", "bo", "br", "c", "co", "cs", "d", "dl", "dn", "dpr", "du", "e", "eo", "f",
        "fl", "fn", "fps", "g", "h", "if", "ki", "l", "o", "p", "pg", "q", "r", "so", "sp", "t", "u", "vc", "vs", "w",
        "x", "y", "z",
    ]

    /// `w_750,c_limit,f_webp,q_75`.
    let newTransformation: String
    private let addedDetail: String

    init(width: Int?, quality: Int?) {
        var parameters: [String] = []
        if let width { parameters += ["w_\(width)", "c_limit"] }
        parameters.append("f_webp")
        if let quality { parameters.append("q_\(quality)") }
        newTransformation = parameters.joined(separator: ",")
        addedDetail = "added transformation \(newTransformation)"
    }

    /// `f_avif`: cloudinary.com/documentation/image_format_support.
    var formatSpelling: FormatSpelling? { FormatSpelling(webP: "f_webp", avif: "f_avif", inQuery: false) }

    func rewrite(_ url: URLParts) -> DialectOutcome {
        let path = url.path
        if path.containsBytes("/image/private/") || path.containsBytes("/image/authenticated/") {
            return .signed("private or authenticated delivery (signed)")
        }
        guard let delivery = Self.deliveryRange(in: path) else {
            return .notRewritable("not a Cloudinary /image/upload/ or /image/fetch/ path")
        }
        let rest = path[delivery.upperBound...]
        let segments = rest.splitBytes(UInt8(ascii: "/"))
        if let first = segments.first, first.hasBytePrefix("s--"), first.hasByteSuffix("--") {
            return .signed("signed URL (s--…--)")
        }
        // Leading segments that are transformations (chained with `/`).
        var transformations: [Substring] = []
        for segment in segments {
            guard Self.isTransformation(segment) else { break }
            transformations.append(segment)
        }
        var formatAt: (segment: Int, parameter: Int, value: Substring)?
        for (segmentIndex, segment) in transformations.enumerated() {
            for (parameterIndex, parameter) in segment.splitBytes(UInt8(ascii: ",")).enumerated()
            where parameter.hasBytePrefix("f_") {
                formatAt = (segmentIndex, parameterIndex, parameter.dropFirst(2))
            }
        }
        var newSegments = segments
        let detail: String
        if let formatAt {
            if formatAt.value == "webp" { return .alreadyWebP("f_webp") }
            if formatAt.value == "avif" { return .alreadyAVIF("f_avif") }
            if formatAt.value == "auto" { return .alreadyWebP("f_auto negotiates WebP") }
            var parameters = transformations[formatAt.segment].splitBytes(UInt8(ascii: ","))
            parameters[formatAt.parameter] = "f_webp"
            newSegments[formatAt.segment] = parameters.joined(separator: ",")[...]
            detail = "replaced f_\(formatAt.value) with f_webp"
        } else if let last = transformations.indices.last {
            newSegments[last] = (transformations[last] + ",f_webp")[...]
            detail = "added f_webp to the transformation"
        } else {
            newSegments.insert(newTransformation[...], at: 0)
            detail = addedDetail
        }
        let newPath = path[..<delivery.upperBound] + newSegments.joined(separator: "/")
        return .rewritten(url.replacing(path: newPath), detail: detail)
    }

    /// The range of `/image/upload/` or `/image/fetch/` in the path.
    static func deliveryRange(in path: Substring) -> Range<String.Index>? {
        path.byteRange(of: "/image/upload/") ?? path.byteRange(of: "/image/fetch/")
    }

    static func isTransformation(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        for parameter in segment.splitBytes(UInt8(ascii: ",")) {
            guard let underscore = parameter.firstIndex(ofByte: UInt8(ascii: "_")),
                parameterNames.contains(parameter[..<underscore]) || parameter.hasBytePrefix("$")
            else { return false }
        }
        return true
    }
}
