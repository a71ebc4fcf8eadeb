import ImageCodecs

/// Parses Qiniu's processing grammar (`imageView2/…`, `imageMogr2/…`, joined
/// by `|`) into a ``ProcessingPipeline``, once per request; everything after
/// works on typed values.
public enum ProcessingParser {
    /// Qiniu's limit on pipeline steps.
    public static let maxSteps = 30
    /// The largest width or height a step may ask for.
    public static let maxDimension = 30_000

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

    private static func parseImageView2(_ parts: [String]) throws(ProcessingError) -> (ImageView2, Bool) {
        guard let modeText = parts.first, let mode = Int(modeText), (0...5).contains(mode) else {
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
            default: throw ProcessingError("imageView2: unknown parameter '\(key)'")
            }
            index += 2
        }
        return (view, ignore)
    }

    private static func parseImageMogr2(_ parts: [String]) throws(ProcessingError) -> (ImageMogr2, Bool) {
        var mogr = ImageMogr2()
        var ignore = false
        var index = 0
        var seen: Set<String> = []
        while index < parts.count {
            let key = parts[index]
            guard seen.insert(key).inserted else { throw ProcessingError("imageMogr2: '\(key)' given twice") }
            if key == "auto-orient" {
                mogr.autoOrient = true
                index += 1
                continue
            }
            guard index + 1 < parts.count else { throw ProcessingError("imageMogr2: '\(key)' needs a value") }
            let value = parts[index + 1]
            switch key {
            case "thumbnail": mogr.thumbnail = try thumbnail(value)
            case "format": mogr.format = try format(value, "imageMogr2")
            case "quality": mogr.quality = try quality(value, "imageMogr2 quality")
            case "interlace": mogr.interlace = try flag(value, "imageMogr2 interlace")
            case "ignore-error": ignore = try flag(value, "imageMogr2 ignore-error")
            default: throw ProcessingError("imageMogr2: unsupported parameter '\(key)'")
            }
            index += 2
        }
        return (mogr, ignore)
    }

    /// `750x`, `x400`, `750x400`, `750x400>`, `!50p`.
    private static func thumbnail(_ value: String) throws(ProcessingError) -> ImageMogr2.Thumbnail {
        if value.hasPrefix("!"), value.hasSuffix("p") {
            let number = value.dropFirst().dropLast()
            guard let percent = Int(number), (1...100).contains(percent) else {
                throw ProcessingError("imageMogr2 thumbnail: percentage must be 1-100 in '\(value)' (never enlarges)")
            }
            return .percent(percent)
        }
        var geometry = Substring(value)
        if geometry.hasSuffix(">") { geometry = geometry.dropLast() }
        let sides = geometry.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2 else {
            throw ProcessingError("imageMogr2 thumbnail: unsupported geometry '\(value)' (use Wx, xH, WxH or !Np)")
        }
        switch (sides[0].isEmpty, sides[1].isEmpty) {
        case (false, true): return .width(try dimension(String(sides[0]), "imageMogr2 thumbnail width"))
        case (true, false): return .height(try dimension(String(sides[1]), "imageMogr2 thumbnail height"))
        case (false, false):
            return .fit(
                width: try dimension(String(sides[0]), "imageMogr2 thumbnail width"),
                height: try dimension(String(sides[1]), "imageMogr2 thumbnail height"))
        case (true, true):
            throw ProcessingError("imageMogr2 thumbnail: geometry '\(value)' names no size")
        }
    }

    private static func dimension(_ text: String, _ what: String) throws(ProcessingError) -> Int {
        guard let value = Int(text), (1...maxDimension).contains(value) else {
            throw ProcessingError("\(what) must be 1-\(maxDimension), got '\(text)'")
        }
        return value
    }

    private static func quality(_ text: String, _ what: String) throws(ProcessingError) -> Int {
        guard let value = Int(text), (1...100).contains(value) else {
            throw ProcessingError("\(what) must be 1-100, got '\(text)'")
        }
        return value
    }

    private static func flag(_ text: String, _ what: String) throws(ProcessingError) -> Bool {
        switch text {
        case "0": return false
        case "1": return true
        default: throw ProcessingError("\(what) must be 0 or 1, got '\(text)'")
        }
    }

    private static func format(_ text: String, _ what: String) throws(ProcessingError) -> ImageFormat {
        switch text.lowercased() {
        case "webp": return .webp
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        default: throw ProcessingError("\(what): unsupported format '\(text)' (use jpg, png or webp)")
        }
    }
}

/// A malformed or unsupported processing request (HTTP 400).
public struct ProcessingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
