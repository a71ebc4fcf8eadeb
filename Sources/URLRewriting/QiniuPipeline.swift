/// Qiniu's processing grammar (also spoken by Tencent CI): a query item
/// holding `fop1|fop2|…`, each fop `name/arg/arg…`. Edits are spliced into
/// the item so that untouched steps keep their exact bytes.
///
/// Foundation's `URL` percent-encodes `|` as `%7C`, so both spellings separate
/// steps, and added steps are joined with `%7C` (the CDNs decode it).
enum QiniuPipeline {
    /// Fops whose output is an image and that accept `format/<fmt>`.
    static let formattableFops: Set<Substring> = ["imageView2", "imageMogr2"]
    /// Other fops that output an image.
    static let imageFops: Set<Substring> = ["watermark", "imageslim", "roundPic", "imageView2", "imageMogr2"]
    /// Fops that return metadata (JSON), never an image: such URLs are not rewritten.
    static let metadataFops: Set<Substring> = ["imageInfo", "exif", "imageAve"]

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
        let name = firstStepName(item)
        return imageFops.contains(name) || metadataFops.contains(name)
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
        case metadata(String)
        /// No step accepts a format: the caller appends its own step.
        case needsStep
    }

    /// Edits `item` to output WebP: replaces the last `format/<x>` of an
    /// `imageView2`/`imageMogr2` step, or adds `format/webp` to the last such
    /// step; reports `needsStep` when there is none.
    static func requestWebP(in item: Substring) -> Edit {
        let ranges = stepRanges(item)
        var lastFormattable: (range: Range<String.Index>, tokens: [Substring])?
        var formatted: (range: Range<String.Index>, tokens: [Substring], valueIndex: Int)?
        for range in ranges {
            let step = item[range]
            let name = firstStepName(step)
            if metadataFops.contains(name) { return .metadata("\(name) returns metadata, not an image") }
            guard formattableFops.contains(name) else { continue }
            let tokens = step.splitBytes(UInt8(ascii: "/"))
            lastFormattable = (range, tokens)
            if let valueIndex = formatValueIndex(tokens) { formatted = (range, tokens, valueIndex) }
        }
        if let formatted {
            let value = formatted.tokens[formatted.valueIndex]
            if RawQuery.lowercasedASCII(value) == "webp" {
                return .alreadyWebP("\(formatted.tokens[0]) has format/\(value)")
            }
            var tokens = formatted.tokens
            tokens[formatted.valueIndex] = "webp"
            return .edited(
                splice(item, formatted.range, tokens.joined(separator: "/")),
                detail: "replaced format/\(value) with format/webp in \(tokens[0])")
        }
        if let lastFormattable {
            var tokens = lastFormattable.tokens
            let insertAt = formatInsertionIndex(tokens)
            tokens.insert(contentsOf: ["format", "webp"], at: insertAt)
            return .edited(
                splice(item, lastFormattable.range, tokens.joined(separator: "/")),
                detail: "added format/webp to \(tokens[0])")
        }
        return .needsStep
    }

    /// Whether any formattable step of `item` outputs WebP.
    static func outputsWebP(_ item: Substring) -> Bool {
        if case .alreadyWebP = requestWebP(in: item) { return true }
        return false
    }

    /// The index of the value after `format` in a step's tokens.
    static func formatValueIndex(_ tokens: [Substring]) -> Int? {
        guard tokens.count >= 3 else { return nil }
        if tokens[0] == "imageView2" {
            // imageView2/<mode>/key/value…: keys sit at even positions from 2.
            var index = 2
            while index + 1 < tokens.count {
                if tokens[index] == "format" { return index + 1 }
                index += 2
            }
            return nil
        }
        // imageMogr2 mixes valueless flags (auto-orient, strip) with key/value pairs.
        for index in 1..<(tokens.count - 1) where tokens[index] == "format" {
            return index + 1
        }
        return nil
    }

    /// Where `format/webp` goes: before the parameters the grammar lists
    /// after it (`interlace`, `q`/`quality`, `ignore-error`), else at the end.
    static func formatInsertionIndex(_ tokens: [Substring]) -> Int {
        let later: Set<Substring> = ["interlace", "q", "quality", "ignore-error"]
        if tokens[0] == "imageView2" {
            var index = 2
            while index < tokens.count {
                if later.contains(tokens[index]) { return index }
                index += 2
            }
            return tokens.count
        }
        for index in 1..<max(tokens.count, 1) where later.contains(tokens[index]) {
            return index
        }
        return tokens.count
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

    private static func splice(_ item: Substring, _ range: Range<String.Index>, _ replacement: String) -> String {
        String(item[item.startIndex..<range.lowerBound]) + replacement + item[range.upperBound...]
    }
}
