import WebPBridge

/// Parses Qiniu's processing grammar (`imageView2/…`, `imageMogr2/…`, joined
/// by `|`) into a ``ProcessingPipeline``, once per request; everything after
/// works on typed values.
///
/// The grammar follows Qiniu's documentation:
/// `imageView2` at https://developer.qiniu.com/dora/1279/basic-processing-images-imageview2,
/// `imageMogr2` at https://developer.qiniu.com/dora/1270/the-advanced-treatment-of-images-imagemogr2
/// and its `thumbnail` table at https://developer.qiniu.com/dora/8255/the-zoom.
///
/// Numbers: the documentation gives ranges of integers and says nothing of
/// how they are spelled, so a number is ASCII digits with an optional
/// leading `+` and leading zeros (`10`, `010`, `+10` are all ten); the
/// pipeline is then printed one way only (``ProcessingPipeline/canonicalForm``),
/// so the spellings share one variant. A `-` is refused.
public enum ProcessingParser {
    /// Qiniu's limit on pipeline steps.
    public static let maxSteps = 30
    /// The largest width or height a step may ask for (Qiniu's limit on a
    /// source's side; outputs are held to ``ThumbnailGeometry/maxOutputSide``).
    public static let maxDimension = 30_000
    /// The largest `!<N>p` percentage, as documented (1–999).
    public static let maxPercent = 999
    /// The largest `<Area>@`: ``maxDimension`` squared.
    public static let maxArea = maxDimension * maxDimension

    /// Parses `fop` (the query string of a processing URL, already
    /// percent-decoded).
    ///
    /// - Throws: ``ProcessingError`` naming the step and what is wrong.
    public static func parse(_ fop: String) throws(ProcessingError) -> ProcessingPipeline {
        let rawSteps = fop.split(separator: "|", omittingEmptySubsequences: false)
        guard rawSteps.count <= maxSteps else {
            throw ProcessingError("too many pipeline steps: \(rawSteps.count) (at most \(maxSteps))")
        }
        var steps: [ImageOperation] = []
        var ignoresErrors = false
        for rawStep in rawSteps {
            let parts = rawStep.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard let name = parts.first, !name.isEmpty else {
                throw ProcessingError("empty pipeline step in '\(fop)'")
            }
            switch name {
            case "imageView2":
                let (view, ignore) = try parseImageView2(Array(parts.dropFirst()))
                steps.append(.imageView2(view))
                ignoresErrors = ignoresErrors || ignore
            case "imageMogr2":
                let (mogr, ignore) = try parseImageMogr2(Array(parts.dropFirst()))
                steps.append(.imageMogr2(mogr))
                ignoresErrors = ignoresErrors || ignore
            default:
                throw ProcessingError("unsupported operation '\(name)' (supported: imageView2, imageMogr2)")
            }
        }
        return ProcessingPipeline(steps: steps, ignoresErrors: ignoresErrors)
    }

    /// Whether `fop` carries `ignore-error/1` as a segment of any step,
    /// whether or not the rest parses: a request the parser refuses still
    /// asked for the source on failure, as Qiniu's documentation has
    /// `ignore-error/1` return the original for any failure.
    public static func requestsIgnoreError(_ fop: String) -> Bool {
        for step in fop.split(separator: "|", maxSplits: maxSteps, omittingEmptySubsequences: false) {
            var previous: Substring?
            for segment in step.split(separator: "/", omittingEmptySubsequences: false) {
                if previous == "ignore-error", number(segment) == 1 { return true }
                previous = segment
            }
        }
        return false
    }

    private static func parseImageView2(_ parts: [String]) throws(ProcessingError) -> (ImageView2, Bool) {
        guard let modeText = parts.first, let mode = number(modeText), (0...5).contains(mode) else {
            throw ProcessingError("imageView2 needs a mode 0-5 first (e.g. imageView2/2/w/750)")
        }
        var view = ImageView2(mode: mode)
        var ignore = false
        var index = 1
        var seen: Set<String> = []
        while index < parts.count {
            let key = parts[index]
            guard index + 1 < parts.count else { throw ProcessingError("imageView2: '\(key)' needs a value") }
            let value = parts[index + 1]
            guard seen.insert(key).inserted else { throw ProcessingError("imageView2: '\(key)' given twice") }
            switch key {
            case "w": view.width = try dimension(value, "imageView2 w")
            case "h": view.height = try dimension(value, "imageView2 h")
            case "format": view.format = try format(value, "imageView2")
            case "q": view.quality = try quality(value, "imageView2 q")
            case "interlace": view.interlace = try flag(value, "imageView2 interlace")
            case "ignore-error": ignore = try flag(value, "imageView2 ignore-error")
            case "colors": throw ProcessingError("imageView2: 'colors' (GIF palettes) is not supported by this origin")
            default: throw ProcessingError("imageView2: unknown parameter '\(key)'")
            }
            index += 2
        }
        return (view, ignore)
    }

    /// `imageMogr2` parameters Qiniu documents that this origin does not
    /// implement: refused by name, so a client learns why.
    private static let unsupportedMogr2Parameters: Set<String> = [
        "gravity", "crop", "rotate", "blur", "size-limit", "sharpen", "background", "extent", "colors",
    ]

    private static func parseImageMogr2(_ parts: [String]) throws(ProcessingError) -> (ImageMogr2, Bool) {
        var mogr = ImageMogr2()
        var ignore = false
        var index = 0
        var seen: Set<String> = []
        while index < parts.count {
            let key = parts[index]
            guard seen.insert(key).inserted else { throw ProcessingError("imageMogr2: '\(key)' given twice") }
            switch key {
            case "auto-orient":
                mogr.autoOrient = true
                index += 1
                continue
            case "strip":
                // Qiniu's strip removes metadata; the origin never writes any, so there is nothing to do.
                index += 1
                continue
            case _ where unsupportedMogr2Parameters.contains(key):
                throw ProcessingError(
                    "imageMogr2: '\(key)' is not supported by this origin (supported: auto-orient, thumbnail, "
                        + "strip, format, quality, interlace, ignore-error)")
            default: break
            }
            guard index + 1 < parts.count else { throw ProcessingError("imageMogr2: '\(key)' needs a value") }
            let value = parts[index + 1]
            switch key {
            case "thumbnail": mogr.thumbnail = try thumbnail(value)
            case "format": mogr.format = try format(value, "imageMogr2")
            case "quality":
                // `75!` forces the value where Qiniu would lower it to the source's; the origin never lowers it.
                let forced = value.hasSuffix("!") ? String(value.dropLast()) : value
                mogr.quality = try quality(forced, "imageMogr2 quality")
            case "interlace": mogr.interlace = try flag(value, "imageMogr2 interlace")
            case "ignore-error": ignore = try flag(value, "imageMogr2 ignore-error")
            default: throw ProcessingError("imageMogr2: unknown parameter '\(key)'")
            }
            index += 2
        }
        return (mogr, ignore)
    }

    private static let thumbnailForms = "!Np, !Npx, !xNp, Wx, xH, WxH, WxH!, WxH>, WxH<, !WxHr or Area@"

    /// Every form of Qiniu's thumbnail table (https://developer.qiniu.com/dora/8255/the-zoom).
    private static func thumbnail(_ value: String) throws(ProcessingError) -> ImageMogr2.Thumbnail {
        let what = "imageMogr2 thumbnail '\(value)'"
        if value.hasPrefix("!") {
            let body = value.dropFirst()
            if body.hasSuffix("px") { return .widthPercent(try percent(body.dropLast(2), what)) }
            if body.hasPrefix("x"), body.hasSuffix("p") {
                return .heightPercent(try percent(body.dropFirst().dropLast(), what))
            }
            if body.hasSuffix("p") { return .percent(try percent(body.dropLast(), what)) }
            if body.hasSuffix("r") {
                let (width, height) = try bothSides(body.dropLast(), what, form: "!<W>x<H>r")
                return .cover(width: width, height: height)
            }
            throw ProcessingError("\(what): not a form of Qiniu's table (\(thumbnailForms))")
        }
        if value.hasSuffix("@") {
            guard let area = number(value.dropLast()), (1...maxArea).contains(area) else {
                throw ProcessingError("\(what): the area must be 1-\(maxArea) pixels")
            }
            return .area(area)
        }
        if let last = value.last, "!><".contains(last) {
            let form = "<W>x<H>\(last)"
            let (width, height) = try bothSides(value.dropLast(), what, form: form)
            switch last {
            case "!": return .exact(width: width, height: height)
            case ">": return .shrinkToFit(width: width, height: height)
            default: return .enlargeToFit(width: width, height: height)
            }
        }
        let sides = try sides(Substring(value), what)
        switch sides {
        case (let width?, nil): return .width(width)
        case (nil, let height?): return .height(height)
        case (let width?, let height?): return .fit(width: width, height: height)
        case (nil, nil): throw ProcessingError("\(what) names no size (\(thumbnailForms))")
        }
    }

    /// `W`x`H` where either side may be missing.
    private static func sides(_ text: Substring, _ what: String) throws(ProcessingError) -> (Int?, Int?) {
        let parts = text.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ProcessingError("\(what): not a form of Qiniu's table (\(thumbnailForms))")
        }
        let width = parts[0].isEmpty ? nil : try dimension(String(parts[0]), "\(what): width")
        let height = parts[1].isEmpty ? nil : try dimension(String(parts[1]), "\(what): height")
        return (width, height)
    }

    private static func bothSides(
        _ text: Substring, _ what: String, form: String
    ) throws(ProcessingError) -> (Int, Int) {
        guard case (let width?, let height?) = try sides(text, what) else {
            throw ProcessingError("\(what): \(form) needs both a width and a height")
        }
        return (width, height)
    }

    private static func percent(_ text: Substring, _ what: String) throws(ProcessingError) -> Int {
        guard let value = number(text), (1...maxPercent).contains(value) else {
            throw ProcessingError("\(what): the percentage must be 1-\(maxPercent), got '\(text)'")
        }
        return value
    }

    private static func dimension(_ text: String, _ what: String) throws(ProcessingError) -> Int {
        guard let value = number(text), (1...maxDimension).contains(value) else {
            throw ProcessingError("\(what) must be 1-\(maxDimension), got '\(text)'")
        }
        return value
    }

    private static func quality(_ text: String, _ what: String) throws(ProcessingError) -> Int {
        guard let value = number(text), (1...100).contains(value) else {
            throw ProcessingError("\(what) must be 1-100, got '\(text)'")
        }
        return value
    }

    /// A decimal number: ASCII digits after an optional `+`, leading zeros
    /// allowed; `nil` for anything else, and for values past ten digits
    /// (every range here is far smaller), so no spelling can overflow.
    static func number<Text: StringProtocol>(_ text: Text) -> Int? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        var significant = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            if value > 0 { significant += 1 }
            guard significant <= 10 else { return nil }
        }
        return value
    }

    private static func flag(_ text: String, _ what: String) throws(ProcessingError) -> Bool {
        switch number(text) {
        case 0: return false
        case 1: return true
        default: throw ProcessingError("\(what) must be 0 or 1, got '\(text)'")
        }
    }

    /// `format/avif` as Tencent CI documents it for the same grammar
    /// (https://cloud.tencent.com/document/api/436/60455: `imageMogr2/format/avif`).
    private static func format(_ text: String, _ what: String) throws(ProcessingError) -> ImageFormat {
        switch text.lowercased() {
        case "webp": return .webp
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "avif": return .avif
        default: throw ProcessingError("\(what): unsupported format '\(text)' (use jpg, png, webp or avif)")
        }
    }
}

/// A malformed or unsupported processing request (HTTP 400).
public struct ProcessingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
