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

    /// `w_750,c_limit,f_webp,q_75` (the rule's width, format and quality;
    /// `w_auto:100:750,dpr_auto,c_limit`, `f_auto`, `q_auto:eco` where the
    /// rule leaves them to the CDN).
    let newTransformation: String
    /// The same for a GIF: `fl_awebp` after the WebP format, so that the
    /// WebP is animated rather than the GIF's first frame.
    let newGIFTransformation: String
    /// `f_webp` or `f_auto`.
    let formatParameter: String
    private let addedDetail: String
    private let addedGIFDetail: String

    /// `fl_awebp`: "When converting animated images to WebP format, generate an
    /// animated WebP from all the frames … instead of only from the first still
    /// frame" (cloudinary.com/documentation/sdks/js/url-gen/Qualifiers.Flag.html).
    /// `f_auto` picks the format per request and needs no flag for an animation.
    static let animatedWebPFlag = "fl_awebp"

    init(width: Int?, quality: Int?, automatic: AutomaticRequests = AutomaticRequests()) {
        var parameters: [String] = []
        if automatic.widthFromClient {
            // w_auto with a rounding step of 100 px and the rule's width for a
            // client without hints (a bridge sends none): w_auto:100:750.
            parameters += [width.map { "w_auto:100:\($0)" } ?? "w_auto", "dpr_auto", "c_limit"]
        } else if let width {
            parameters += ["w_\(width)", "c_limit"]
        }
        formatParameter = automatic.format ? "f_auto" : "f_webp"
        var quality = quality.map { "q_\($0)" }
        if let automatic = automatic.quality {
            quality = automatic == .standard ? "q_auto" : "q_" + automatic.rawValue
        }
        newTransformation = (parameters + [formatParameter] + (quality.map { [$0] } ?? [])).joined(separator: ",")
        let gifFormat = automatic.format ? [formatParameter] : [formatParameter, Self.animatedWebPFlag]
        newGIFTransformation = (parameters + gifFormat + (quality.map { [$0] } ?? [])).joined(separator: ",")
        addedDetail = "added transformation \(newTransformation)"
        addedGIFDetail = "added transformation \(newGIFTransformation)"
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
        // A GIF's WebP is animated only with fl_awebp (f_auto needs none).
        let isGIF = ImageType(path: path) == .gif
        let format = isGIF && formatParameter == "f_webp" ? "f_webp,\(Self.animatedWebPFlag)" : formatParameter
        if let formatAt {
            if formatAt.value == "webp" { return .alreadyWebP("f_webp") }
            if formatAt.value == "avif" { return .alreadyAVIF("f_avif") }
            if formatAt.value == "auto" { return .alreadyWebP("f_auto negotiates WebP") }
            var parameters = transformations[formatAt.segment].splitBytes(UInt8(ascii: ","))
            parameters[formatAt.parameter] = format[...]
            newSegments[formatAt.segment] = parameters.joined(separator: ",")[...]
            detail = "replaced f_\(formatAt.value) with \(format)"
        } else if let last = transformations.indices.last {
            newSegments[last] = (transformations[last] + "," + format)[...]
            detail = "added \(format) to the transformation"
        } else {
            newSegments.insert((isGIF ? newGIFTransformation : newTransformation)[...], at: 0)
            detail = isGIF ? addedGIFDetail : addedDetail
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
