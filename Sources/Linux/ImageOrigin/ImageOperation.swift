public import WebPBridge

/// One step of a Qiniu processing pipeline (`fop`), parsed into a typed value.
public enum ImageOperation: Sendable, Equatable {
    /// `imageView2/<mode>/w/<W>/h/<H>/format/<f>/q/<Q>/interlace/<0|1>`.
    case imageView2(ImageView2)
    /// The `imageMogr2` subset: `auto-orient`, `strip`, `thumbnail/<geometry>`, `format`, `quality`, `interlace`.
    case imageMogr2(ImageMogr2)

    /// The output format this step asks for, if any.
    public var format: ImageFormat? {
        switch self {
        case .imageView2(let view): view.format
        case .imageMogr2(let mogr): mogr.format
        }
    }

    /// The quality this step asks for, if any.
    public var quality: Int? {
        switch self {
        case .imageView2(let view): view.quality
        case .imageMogr2(let mogr): mogr.quality
        }
    }

    /// Whether this step asks for interlaced (progressive) JPEG output.
    public var interlace: Bool? {
        switch self {
        case .imageView2(let view): view.interlace
        case .imageMogr2(let mogr): mogr.interlace
        }
    }
}

/// Qiniu's `imageView2`: a thumbnail in one of six modes.
public struct ImageView2: Sendable, Equatable {
    /// 0–5, as Qiniu defines them (see ``ThumbnailGeometry``).
    public var mode: Int
    public var width: Int?
    public var height: Int?
    public var format: ImageFormat?
    /// 1–100.
    public var quality: Int?
    public var interlace: Bool?

    public init(
        mode: Int, width: Int? = nil, height: Int? = nil, format: ImageFormat? = nil, quality: Int? = nil,
        interlace: Bool? = nil
    ) {
        self.mode = mode
        self.width = width
        self.height = height
        self.format = format
        self.quality = quality
        self.interlace = interlace
    }
}

/// The supported subset of Qiniu's `imageMogr2`: `auto-orient`,
/// `thumbnail`, `format`, `quality`, `interlace` (and `strip`, accepted and
/// dropped: the origin never writes metadata).
public struct ImageMogr2: Sendable, Equatable {
    /// `thumbnail/<geometry>`, every form of Qiniu's table
    /// (https://developer.qiniu.com/dora/8255/the-zoom). Unlike `imageView2`,
    /// these forms enlarge unless the form says otherwise; see
    /// ``ThumbnailGeometry/thumbnail(_:width:height:)`` for each rule.
    public enum Thumbnail: Sendable, Equatable {
        /// `!<N>p`: N percent of both sides (1–999).
        case percent(Int)
        /// `!<N>px`: N percent of the width, the height unchanged (1–999).
        case widthPercent(Int)
        /// `!x<N>p`: N percent of the height, the width unchanged (1–999).
        case heightPercent(Int)
        /// `<W>x`: width W, height proportional.
        case width(Int)
        /// `x<H>`: height H, width proportional.
        case height(Int)
        /// `<W>x<H>`: the largest proportional size inside W×H.
        case fit(width: Int, height: Int)
        /// `<W>x<H>>`: as ``fit(width:height:)``, but only ever shrinks.
        case shrinkToFit(width: Int, height: Int)
        /// `<W>x<H><`: as ``fit(width:height:)``, but only ever enlarges.
        case enlargeToFit(width: Int, height: Int)
        /// `!<W>x<H>r`: the smallest proportional size covering W×H.
        case cover(width: Int, height: Int)
        /// `<W>x<H>!`: exactly W×H, the aspect ratio ignored.
        case exact(width: Int, height: Int)
        /// `<Area>@`: the largest proportional size of at most Area pixels.
        case area(Int)
    }

    public var autoOrient: Bool
    public var thumbnail: Thumbnail?
    public var format: ImageFormat?
    public var quality: Int?
    public var interlace: Bool?

    public init(
        autoOrient: Bool = false, thumbnail: Thumbnail? = nil, format: ImageFormat? = nil, quality: Int? = nil,
        interlace: Bool? = nil
    ) {
        self.autoOrient = autoOrient
        self.thumbnail = thumbnail
        self.format = format
        self.quality = quality
        self.interlace = interlace
    }
}

/// A parsed `fop`: the steps joined by `|`, and whether `ignore-error/1`
/// was given (then a failed transformation returns the source).
public struct ProcessingPipeline: Sendable, Equatable {
    public var steps: [ImageOperation]
    public var ignoresErrors: Bool

    public init(steps: [ImageOperation], ignoresErrors: Bool) {
        self.steps = steps
        self.ignoresErrors = ignoresErrors
    }

    /// The format of the result: the last step that names one.
    public var outputFormat: ImageFormat? { steps.reversed().lazy.compactMap(\.format).first }
    /// The quality of the result: the last step that names one.
    public var quality: Int? { steps.reversed().lazy.compactMap(\.quality).first }
    /// Whether JPEG output is progressive.
    public var interlace: Bool { steps.reversed().lazy.compactMap(\.interlace).first ?? false }
}
