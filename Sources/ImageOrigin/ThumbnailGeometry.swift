/// Where a thumbnail step takes an image: scale to `scaled`, then optionally
/// centre-crop to `crop`. Pure arithmetic, so every mode is tested directly.
///
/// No step ever enlarges: when a mode would scale up, the scale is 1.
public struct ThumbnailGeometry: Sendable, Equatable {
    public var scaledWidth: Int
    public var scaledHeight: Int
    /// The centred crop size, when the step crops.
    public var cropWidth: Int?
    public var cropHeight: Int?

    /// The final width after scaling and cropping.
    public var outputWidth: Int { cropWidth ?? scaledWidth }
    /// The final height after scaling and cropping.
    public var outputHeight: Int { cropHeight ?? scaledHeight }

    public init(scaledWidth: Int, scaledHeight: Int, cropWidth: Int? = nil, cropHeight: Int? = nil) {
        self.scaledWidth = scaledWidth
        self.scaledHeight = scaledHeight
        self.cropWidth = cropWidth
        self.cropHeight = cropHeight
    }

    /// The geometry of an `imageView2` step on a `width`×`height` source.
    ///
    /// - mode 0: long edge ≤ W, short edge ≤ H.
    /// - mode 1: cover W×H, then centre-crop to W×H (one side alone means a square).
    /// - mode 2: width ≤ W, height ≤ H.
    /// - mode 3: cover W×H, no crop.
    /// - mode 4: long edge ≥ W, short edge ≥ H.
    /// - mode 5: mode 4, then centre-crop to long W × short H.
    public static func imageView2(_ view: ImageView2, width: Int, height: Int) -> ThumbnailGeometry {
        let landscape = width >= height
        switch view.mode {
        case 0:
            // Long/short edges map onto width/height by the source's orientation.
            let (boxWidth, boxHeight) = landscape ? (view.width, view.height) : (view.height, view.width)
            return fit(width: width, height: height, maxWidth: boxWidth, maxHeight: boxHeight)
        case 1:
            guard let (boxWidth, boxHeight) = squareIfSingle(view.width, view.height) else {
                return ThumbnailGeometry(scaledWidth: width, scaledHeight: height)
            }
            return coverThenCrop(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
        case 2:
            return fit(width: width, height: height, maxWidth: view.width, maxHeight: view.height)
        case 3:
            return cover(width: width, height: height, minWidth: view.width, minHeight: view.height)
        case 4:
            let (minWidth, minHeight) = landscape ? (view.width, view.height) : (view.height, view.width)
            return cover(width: width, height: height, minWidth: minWidth, minHeight: minHeight)
        default:
            guard let (longEdge, shortEdge) = squareIfSingle(view.width, view.height) else {
                return ThumbnailGeometry(scaledWidth: width, scaledHeight: height)
            }
            let (boxWidth, boxHeight) = landscape ? (longEdge, shortEdge) : (shortEdge, longEdge)
            return coverThenCrop(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
        }
    }

    /// The geometry of an `imageMogr2` thumbnail.
    public static func thumbnail(_ thumbnail: ImageMogr2.Thumbnail, width: Int, height: Int) -> ThumbnailGeometry {
        switch thumbnail {
        case .width(let maxWidth): fit(width: width, height: height, maxWidth: maxWidth, maxHeight: nil)
        case .height(let maxHeight): fit(width: width, height: height, maxWidth: nil, maxHeight: maxHeight)
        case .fit(let maxWidth, let maxHeight):
            fit(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        case .percent(let percent):
            ThumbnailGeometry(
                scaledWidth: max(1, (width * percent + 50) / 100), scaledHeight: max(1, (height * percent + 50) / 100))
        }
    }

    private static func squareIfSingle(_ width: Int?, _ height: Int?) -> (Int, Int)? {
        switch (width, height) {
        case (nil, nil): nil
        case (let w?, nil): (w, w)
        case (nil, let h?): (h, h)
        case (let w?, let h?): (w, h)
        }
    }

    private static func fit(width: Int, height: Int, maxWidth: Int?, maxHeight: Int?) -> ThumbnailGeometry {
        var scale = 1.0
        if let maxWidth { scale = min(scale, Double(maxWidth) / Double(width)) }
        if let maxHeight { scale = min(scale, Double(maxHeight) / Double(height)) }
        return scaled(width: width, height: height, scale: scale)
    }

    private static func cover(width: Int, height: Int, minWidth: Int?, minHeight: Int?) -> ThumbnailGeometry {
        var scale = 0.0
        if let minWidth { scale = max(scale, Double(minWidth) / Double(width)) }
        if let minHeight { scale = max(scale, Double(minHeight) / Double(height)) }
        return scaled(width: width, height: height, scale: scale == 0 ? 1 : min(scale, 1))
    }

    private static func coverThenCrop(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> ThumbnailGeometry {
        var geometry = cover(width: width, height: height, minWidth: boxWidth, minHeight: boxHeight)
        let cropWidth = min(boxWidth, geometry.scaledWidth)
        let cropHeight = min(boxHeight, geometry.scaledHeight)
        if cropWidth != geometry.scaledWidth || cropHeight != geometry.scaledHeight {
            geometry.cropWidth = cropWidth
            geometry.cropHeight = cropHeight
        }
        return geometry
    }

    private static func scaled(width: Int, height: Int, scale: Double) -> ThumbnailGeometry {
        guard scale < 1 else { return ThumbnailGeometry(scaledWidth: width, scaledHeight: height) }
        return ThumbnailGeometry(
            scaledWidth: max(1, Int((Double(width) * scale).rounded())),
            scaledHeight: max(1, Int((Double(height) * scale).rounded())))
    }
}
