extension ThumbnailGeometry {
    /// Qiniu's limit on a processed image's side (synchronous processing,
    /// https://developer.qiniu.com/dora/8255/the-zoom "处理后体积限制").
    public static let maxOutputSide = 9_999
    /// Qiniu's limit on a processed image's pixels: "总像素不得超过2500w",
    /// read as fewer than 25 million.
    public static let maxOutputPixels = 24_999_999

    /// The geometry of an `imageMogr2` thumbnail on a `width`×`height`
    /// source, by Qiniu's table (https://developer.qiniu.com/dora/8255/the-zoom,
    /// "缩放操作参数表"); the ImageMagick geometry it descends from enlarges
    /// unless told not to, and so does each form here but `WxH>`:
    ///
    /// - `!Np`: "基于原图的长宽,按指定百分比缩放", N 1–999 — both sides × N%.
    /// - `!Npx` / `!xNp`: the width (height) × N%, the other side unchanged.
    /// - `Wx` / `xH`: the width (height) becomes W (H), the other proportional.
    /// - `WxH`: the largest proportional size inside W×H (up or down).
    /// - `WxH>`: as `WxH`, but only when that shrinks; otherwise unchanged.
    /// - `WxH<`: as `WxH`, but only when that enlarges; otherwise unchanged.
    /// - `!WxHr`: the smallest proportional size covering W×H (up or down).
    /// - `WxH!`: exactly W×H, the aspect ratio ignored.
    /// - `Area@`: the largest proportional size of at most Area pixels.
    public static func thumbnail(_ thumbnail: ImageMogr2.Thumbnail, width: Int, height: Int) -> ThumbnailGeometry {
        switch thumbnail {
        case .percent(let percent):
            return scaled(width: width, height: height, scale: Double(percent) / 100)
        case .widthPercent(let percent):
            return ThumbnailGeometry(scaledWidth: side(width, times: Double(percent) / 100), scaledHeight: height)
        case .heightPercent(let percent):
            return ThumbnailGeometry(scaledWidth: width, scaledHeight: side(height, times: Double(percent) / 100))
        case .width(let maxWidth):
            return fit(width: width, height: height, maxWidth: maxWidth, maxHeight: nil, enlarges: true)
        case .height(let maxHeight):
            return fit(width: width, height: height, maxWidth: nil, maxHeight: maxHeight, enlarges: true)
        case .fit(let maxWidth, let maxHeight):
            return fit(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight, enlarges: true)
        case .shrinkToFit(let maxWidth, let maxHeight):
            return fit(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight, enlarges: false)
        case .enlargeToFit(let maxWidth, let maxHeight):
            let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
            return scaled(width: width, height: height, scale: max(scale, 1))
        case .cover(let minWidth, let minHeight):
            return cover(width: width, height: height, minWidth: minWidth, minHeight: minHeight, enlarges: true)
        case .exact(let exactWidth, let exactHeight):
            return ThumbnailGeometry(scaledWidth: exactWidth, scaledHeight: exactHeight)
        case .area(let area):
            return fitArea(width: width, height: height, area: area)
        }
    }

    /// Sides rounded down, so the product never exceeds `area`.
    private static func fitArea(width: Int, height: Int, area: Int) -> ThumbnailGeometry {
        let scale = (Double(area) / (Double(width) * Double(height))).squareRoot()
        var newWidth = max(1, Int(min(Double(width) * scale, 1e12)))
        var newHeight = max(1, Int(min(Double(height) * scale, 1e12)))
        // Floating point may land a hair above; step the longer side down until it fits.
        while newWidth * newHeight > area, newWidth > 1 || newHeight > 1 {
            if newWidth >= newHeight { newWidth -= 1 } else { newHeight -= 1 }
        }
        return ThumbnailGeometry(scaledWidth: newWidth, scaledHeight: newHeight)
    }

    /// Why this step may not be made from a `width`×`height` input, or
    /// `nil`. Only a step that enlarges is bounded: past Qiniu's output
    /// limits (or the input's own size where that is larger), and past the
    /// same bound for the resizer's intermediate image (new width × old
    /// height), so a request cannot make the origin allocate without limit.
    public func enlargementRefusal(fromWidth width: Int, height: Int) -> String? {
        guard scaledWidth > width || scaledHeight > height else { return nil }
        let pixelBound = max(Self.maxOutputPixels, width * height)
        let fits =
            scaledWidth <= max(Self.maxOutputSide, width) && scaledHeight <= max(Self.maxOutputSide, height)
            && scaledWidth * scaledHeight <= pixelBound && scaledWidth * height <= pixelBound
        guard !fits else { return nil }
        return "enlarging \(width)x\(height) to \(scaledWidth)x\(scaledHeight) passes Qiniu's output limit "
            + "(\(Self.maxOutputSide.formatted) pixels a side, \(Self.maxOutputPixels.formatted) pixels)"
    }

    /// The box to decode a `width`×`height` source into before this step:
    /// its scaled size, or — for a step that changes the aspect ratio
    /// (`WxH!`, `!Npx`, `!xNp`) — the proportional box that covers it, so
    /// no side is decoded smaller than the step needs and then enlarged.
    public func decodingBox(width: Int, height: Int) -> (width: Int, height: Int) {
        // Proportional within rounding: one pixel of either side.
        let skew = abs(scaledWidth * height - scaledHeight * width)
        guard skew > max(width, height) else { return (scaledWidth, scaledHeight) }
        let scale = max(Double(scaledWidth) / Double(width), Double(scaledHeight) / Double(height))
        return (
            max(scaledWidth, Int((Double(width) * scale).rounded(.up))),
            max(scaledHeight, Int((Double(height) * scale).rounded(.up)))
        )
    }
}

extension Int {
    /// `24,999,999`: thousands separated, for messages.
    fileprivate var formatted: String {
        let digits = Array(String(self))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
