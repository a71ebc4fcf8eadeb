/// Where a thumbnail step takes an image: scale to `scaled`, then optionally
/// centre-crop to `crop`. Pure arithmetic, so every mode is tested directly.
///
/// `imageView2` never enlarges; `imageMogr2/thumbnail` does unless its form
/// says otherwise (see ``thumbnail(_:width:height:)``), within Qiniu's output
/// limits (``maxOutputSide``, ``maxOutputPixels``).
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

    /// The geometry of an `imageView2` step on a `width`×`height` source,
    /// as https://developer.qiniu.com/dora/1279/basic-processing-images-imageview2
    /// defines the modes:
    ///
    /// - mode 0: long edge ≤ W, short edge ≤ H; W alone bounds the long
    ///   edge, H alone the short edge (the other adapts).
    /// - mode 1: width ≥ W, height ≥ H, then centre-crop to W×H.
    /// - mode 2: width ≤ W, height ≤ H; one side alone bounds that side.
    /// - mode 3: width ≥ W, height ≥ H, no crop ("mode 1 is mode 3 then a
    ///   centre crop").
    /// - mode 4: long edge ≥ W, short edge ≥ H, no crop.
    /// - mode 5: mode 4, then centre-crop to long W × short H.
    ///
    /// One side alone: for the maximum modes (0, 2) the missing side is
    /// unbounded; for the minimum modes (1, 3, 4, 5) it takes the given
    /// value, a square box — the page says so for each of 1, 3, 4 and 5
    /// ("代表长宽限定为同样的值" / "表示长边短边限定为同样的值") and in its
    /// note 3 for all of them. So `3/w/300` on 1000×600 is 500×300.
    ///
    /// Never enlarges (note 2: "新图的宽/高/长边/短边,不会比原图大,即本接口总是缩小图片"):
    /// a mode that would scale up keeps scale 1, and a crop box larger than
    /// the image is cut to it.
    public static func imageView2(_ view: ImageView2, width: Int, height: Int) -> ThumbnailGeometry {
        let landscape = width >= height
        switch view.mode {
        case 0:
            // Long/short edges map onto width/height by the source's orientation.
            let (boxWidth, boxHeight) = landscape ? (view.width, view.height) : (view.height, view.width)
            return fit(width: width, height: height, maxWidth: boxWidth, maxHeight: boxHeight, enlarges: false)
        case 2:
            return fit(width: width, height: height, maxWidth: view.width, maxHeight: view.height, enlarges: false)
        default:
            guard let (first, second) = squareIfSingle(view.width, view.height) else {
                return ThumbnailGeometry(scaledWidth: width, scaledHeight: height)
            }
            // Modes 4 and 5 bound the long and short edges; 1 and 3 the width and height.
            let longShort = view.mode == 4 || view.mode == 5
            let (boxWidth, boxHeight) = longShort && !landscape ? (second, first) : (first, second)
            if view.mode == 3 || view.mode == 4 {
                return cover(width: width, height: height, minWidth: boxWidth, minHeight: boxHeight, enlarges: false)
            }
            return coverThenCrop(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
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

    /// The largest proportional size inside the box (a missing side is unbounded).
    static func fit(width: Int, height: Int, maxWidth: Int?, maxHeight: Int?, enlarges: Bool) -> ThumbnailGeometry {
        var scale = Double.infinity
        if let maxWidth { scale = min(scale, Double(maxWidth) / Double(width)) }
        if let maxHeight { scale = min(scale, Double(maxHeight) / Double(height)) }
        if scale == .infinity { scale = 1 }
        return scaled(width: width, height: height, scale: enlarges ? scale : min(scale, 1))
    }

    /// The smallest proportional size covering the box.
    static func cover(width: Int, height: Int, minWidth: Int?, minHeight: Int?, enlarges: Bool) -> ThumbnailGeometry {
        var scale = 0.0
        if let minWidth { scale = max(scale, Double(minWidth) / Double(width)) }
        if let minHeight { scale = max(scale, Double(minHeight) / Double(height)) }
        if scale == 0 { scale = 1 }
        return scaled(width: width, height: height, scale: enlarges ? scale : min(scale, 1))
    }

    private static func coverThenCrop(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> ThumbnailGeometry {
        var geometry = cover(width: width, height: height, minWidth: boxWidth, minHeight: boxHeight, enlarges: false)
        let cropWidth = min(boxWidth, geometry.scaledWidth)
        let cropHeight = min(boxHeight, geometry.scaledHeight)
        if cropWidth != geometry.scaledWidth || cropHeight != geometry.scaledHeight {
            geometry.cropWidth = cropWidth
            geometry.cropHeight = cropHeight
        }
        return geometry
    }

    /// Both sides times `scale`, rounded, at least 1 px.
    static func scaled(width: Int, height: Int, scale: Double) -> ThumbnailGeometry {
        guard scale != 1 else { return ThumbnailGeometry(scaledWidth: width, scaledHeight: height) }
        return ThumbnailGeometry(scaledWidth: side(width, times: scale), scaledHeight: side(height, times: scale))
    }

    /// `length` × `scale`, rounded, at least 1; kept far below `Int.max`
    /// (the output limits refuse anything this large long before).
    static func side(_ length: Int, times scale: Double) -> Int {
        max(1, Int(min((Double(length) * scale).rounded(), 1e12)))
    }
}
