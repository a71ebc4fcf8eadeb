/// Qiniu's processing grammar (also spoken by Tencent CI): a query item
/// holding `fop1|fop2|…`, each fop `name/arg/arg…`. Edits are spliced into
/// the item so that untouched steps keep their exact bytes.
///
/// Foundation's `URL` percent-encodes `|` as `%7C`, so both spellings separate
/// steps, and added steps are joined with `%7C` (the CDNs decode it).
enum QiniuPipeline {
    /// What a fop (processing step) is, by name.
    enum FopKind {
        /// Outputs an image and accepts `format/<fmt>`: `imageView2`, `imageMogr2`.
        case formattable
        /// Outputs an image: `watermark`, `imageslim`, `roundPic`.
        case image
        /// Returns metadata (JSON), never an image: `imageInfo`, `exif`, `imageAve`.
        /// Such URLs are not rewritten.
        case metadata
        /// Not a fop this grammar knows.
        case unknown

        /// Compared as plain strings (no hashing): this runs for every query item.
        init(name: Substring) {
            switch name.utf8.count {
            case 10 where name == "imageView2" || name == "imageMogr2": self = .formattable
            case 9 where name == "watermark" || name == "imageslim": self = .image
            case 9 where name == "imageInfo": self = .metadata
            case 8 where name == "roundPic" || name == "imageAve": self = name == "imageAve" ? .metadata : .image
            case 4 where name == "exif": self = .metadata
            default: self = .unknown
            }
        }
    }

    private static let addedToImageView2 = "added format/webp to imageView2"
    private static let addedToImageMogr2 = "added format/webp to imageMogr2"

    /// The step separator used when adding a step.
    static let separator = "%7C"

    /// The name of an item's first step (`imageView2` in `imageView2/2/w/750`).
    static func firstStepName(_ item: Substring) -> Substring {
        let utf8 = item.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "%") { break }
            index = utf8.index(after: index)
        }
        return item[item.startIndex..<index]
    }

    /// Whether a query item is a processing pipeline this grammar knows.
    static func isPipeline(_ item: Substring) -> Bool {
        FopKind(name: firstStepName(item)) != .unknown
    }

    /// The ranges of the steps of `item`, split on `|` and `%7C`.
    static func stepRanges(_ item: Substring) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        let utf8 = item.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "|") {
                ranges.append(start..<index)
                index = utf8.index(after: index)
                start = index
                continue
            }
            if byte == UInt8(ascii: "%"), utf8[index...].count >= 3 {
                let high = utf8[utf8.index(index, offsetBy: 1)]
                let low = RawQuery.lowercase(utf8[utf8.index(index, offsetBy: 2)])
                if high == UInt8(ascii: "7"), low == UInt8(ascii: "c") {
                    ranges.append(start..<index)
                    index = utf8.index(index, offsetBy: 3)
                    start = index
                    continue
                }
            }
            index = utf8.index(after: index)
        }
        ranges.append(start..<utf8.endIndex)
        return ranges
    }

    /// The result of asking a pipeline for WebP.
    enum Edit {
        case edited(String, detail: String)
        case alreadyWebP(String)
        case alreadyAVIF(String)
        case metadata(String)
        /// A formattable step the grammar cannot read back once edited (no
        /// mode, a key without its value): the CDN would refuse it, and an
        /// edit would be edited again on every pass. Left alone.
        case unreadable(String)
        /// No step accepts a format: the caller appends its own step.
        case needsStep
    }

    /// Edits `item` to output WebP: replaces the last `format/<x>` of an
    /// `imageView2`/`imageMogr2` step, or adds `format/webp` to the last such
    /// step; reports `needsStep` when there is none, and `unreadable` when
    /// the edit would not read back as WebP (so rewriting stays idempotent).
    static func requestWebP(in item: Substring) -> Edit {
        let edit = proposeWebP(in: item)
        guard case .edited(let edited, _) = edit else { return edit }
        guard case .alreadyWebP = proposeWebP(in: edited[...]) else {
            return .unreadable("'\(item)' is not processing this grammar can edit")
        }
        return edit
    }

    /// One edit towards WebP, unchecked. Works on token ranges rather than
    /// split substrings: this runs for every URL with processing, and one
    /// splice is all the output needs.
    private static func proposeWebP(in item: Substring) -> Edit {
        var lastFormattable: (name: Substring, tokens: [Range<String.Index>])?
        var formatValue: (name: Substring, range: Range<String.Index>)?
        for range in stepRanges(item) {
            let step = item[range]
            let name = firstStepName(step)
            switch FopKind(name: name) {
            case .metadata: return .metadata("\(name) returns metadata, not an image")
            case .formattable: break
            case .image, .unknown: continue
            }
            let tokens = tokenRanges(step)
            lastFormattable = (name, tokens)
            if let valueIndex = formatValueIndex(in: item, tokens, isImageView2: name == "imageView2") {
                formatValue = (name, tokens[valueIndex])
            }
        }
        if let formatValue {
            let value = item[formatValue.range]
            if value.utf8.count == 4, RawQuery.lowercasedASCII(value) == "webp" {
                return .alreadyWebP("\(formatValue.name) has format/\(value)")
            }
            if value.utf8.count == 4, RawQuery.lowercasedASCII(value) == "avif" {
                return .alreadyAVIF("\(formatValue.name) has format/\(value)")
            }
            var edited = String(item[item.startIndex..<formatValue.range.lowerBound])
            edited += "webp"
            edited += item[formatValue.range.upperBound...]
            return .edited(edited, detail: "replaced format/\(value) with format/webp in \(formatValue.name)")
        }
        guard let lastFormattable else { return .needsStep }
        var edited: String
        if let insertAt = formatInsertionIndex(
            in: item, lastFormattable.tokens, isImageView2: lastFormattable.name == "imageView2")
        {
            let before = lastFormattable.tokens[insertAt].lowerBound
            edited = String(item[item.startIndex..<before])
            edited += "format/webp/"
            edited += item[before...]
        } else {
            let end = lastFormattable.tokens[lastFormattable.tokens.count - 1].upperBound
            edited = String(item[item.startIndex..<end])
            edited += "/format/webp"
            edited += item[end...]
        }
        let detail = lastFormattable.name == "imageView2" ? addedToImageView2 : addedToImageMogr2
        return .edited(edited, detail: detail)
    }

    /// Whether any formattable step of `item` outputs WebP.
    static func outputsWebP(_ item: Substring) -> Bool {
        if case .alreadyWebP = requestWebP(in: item) { return true }
        return false
    }

    /// The ranges of a step's `/`-separated tokens.
    static func tokenRanges(_ step: Substring) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        let utf8 = step.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                ranges.append(start..<index)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        ranges.append(start..<utf8.endIndex)
        return ranges
    }

    /// The position of the token after `format`.
    static func formatValueIndex(in text: Substring, _ tokens: [Range<String.Index>], isImageView2: Bool) -> Int? {
        guard tokens.count >= 3 else { return nil }
        if isImageView2 {
            // imageView2/<mode>/key/value…: keys sit at even positions from 2.
            var index = 2
            while index + 1 < tokens.count {
                if text[tokens[index]] == "format" { return index + 1 }
                index += 2
            }
            return nil
        }
        // imageMogr2 mixes valueless flags (auto-orient, strip) with key/value pairs.
        for index in 1..<(tokens.count - 1) where text[tokens[index]] == "format" {
            return index + 1
        }
        return nil
    }

    /// The position of the token `format/webp` goes before: the first of the
    /// parameters the grammar lists after it (`interlace`, `q`/`quality`,
    /// `ignore-error`); `nil` to append at the end.
    static func formatInsertionIndex(in text: Substring, _ tokens: [Range<String.Index>], isImageView2: Bool) -> Int? {
        var index = isImageView2 ? 2 : 1
        while index < tokens.count {
            switch text[tokens[index]] {
            case "interlace", "q", "quality", "ignore-error": return index
            default: index += isImageView2 ? 2 : 1
            }
        }
        return nil
    }

    /// The width a step resizes to: `imageView2/…/w/750` or `imageMogr2/thumbnail/750x…`.
    static func width(ofStep tokens: [Substring]) -> Int? {
        if tokens.first == "imageView2" {
            var index = 2
            while index + 1 < tokens.count {
                if tokens[index] == "w" { return Int(tokens[index + 1]) }
                index += 2
            }
        } else if tokens.first == "imageMogr2" {
            for index in 1..<max(tokens.count - 1, 1) where tokens[index] == "thumbnail" {
                let geometry = tokens[index + 1]
                return Int(geometry.prefix(while: { $0.isASCII && $0.isNumber }))
            }
        }
        return nil
    }
}
