import WebPBridge

extension ProcessingPipeline {
    /// The pipeline written one way only: numbers without sign or leading
    /// zeros, parameters in a fixed order, `jpg` for JPEG, no `strip` (a
    /// no-op here), `quality/75` for `quality/75!`, `ignore-error/1` on the
    /// last step when given. Spellings that parse to the same
    /// pipeline (`w/10`, `w/010`, `w/+10`; `w/1/h/2` and `h/2/w/1`) have the
    /// same canonical form, which is what the origin's cache keys and ETags
    /// are made from; ``ProcessingParser/parse(_:)`` reads it back to an
    /// equal pipeline.
    public var canonicalForm: String {
        var texts = steps.map(\.canonicalForm)
        if ignoresErrors, !texts.isEmpty { texts[texts.count - 1] += "/ignore-error/1" }
        return texts.joined(separator: "|")
    }
}

extension ImageOperation {
    /// This step written as ``ProcessingPipeline/canonicalForm`` writes it.
    public var canonicalForm: String {
        var parts: [String]
        switch self {
        case .imageView2(let view):
            parts = ["imageView2", String(view.mode)]
            if let width = view.width { parts += ["w", String(width)] }
            if let height = view.height { parts += ["h", String(height)] }
            if let format = view.format { parts += ["format", format.fileExtension] }
            if let quality = view.quality { parts += ["q", String(quality)] }
            if let interlace = view.interlace { parts += ["interlace", interlace ? "1" : "0"] }
        case .imageMogr2(let mogr):
            parts = ["imageMogr2"]
            if mogr.autoOrient { parts.append("auto-orient") }
            if let thumbnail = mogr.thumbnail { parts += ["thumbnail", thumbnail.canonicalForm] }
            if let format = mogr.format { parts += ["format", format.fileExtension] }
            if let quality = mogr.quality { parts += ["quality", String(quality)] }
            if let interlace = mogr.interlace { parts += ["interlace", interlace ? "1" : "0"] }
        }
        return parts.joined(separator: "/")
    }
}

extension ImageMogr2.Thumbnail {
    /// The form of Qiniu's table this geometry is written in, its numbers
    /// without sign or leading zeros.
    var canonicalForm: String {
        switch self {
        case .percent(let percent): "!\(percent)p"
        case .widthPercent(let percent): "!\(percent)px"
        case .heightPercent(let percent): "!x\(percent)p"
        case .width(let width): "\(width)x"
        case .height(let height): "x\(height)"
        case .fit(let width, let height): "\(width)x\(height)"
        case .shrinkToFit(let width, let height): "\(width)x\(height)>"
        case .enlargeToFit(let width, let height): "\(width)x\(height)<"
        case .cover(let width, let height): "!\(width)x\(height)r"
        case .exact(let width, let height): "\(width)x\(height)!"
        case .area(let area): "\(area)@"
        }
    }
}
