public import Foundation
public import WebPBridge

/// How the origin writes a WebP variant so that it is no bigger than it
/// needs to be.
///
/// Photos are written lossy only, as before: lossless would cost a second
/// encode and never win on them. Graphics (few colours, transparency, hard
/// edges: GIF, palette PNG, screenshots, logos) are written lossy *and*
/// lossless and the smaller kept, by measured bytes, up to
/// ``maxLosslessTryPixels``; an animated graphic
/// lets libwebp choose lossy or lossless frame by frame
/// (``WebPEncoder/Options/allowMixed``). ``ImageTransformer`` then returns
/// the source instead when the variant has the source's size and is not
/// smaller than it.
///
/// Which is which is decided cheaply, before encoding: a JPEG source is a
/// photo and a GIF a graphic; any other still is a graphic when it has at
/// most ``sampleSize`` pixels, or when, of ``sampleSize`` pixels spread over
/// it, few have distinct colours (``graphicColourShare``) or many equal their
/// neighbour (``graphicFlatShare``). Counting them costs microseconds.
/// An animation is a graphic unless it is a WebP whose headers say lossy,
/// or its first, middle and last frames, as the encoder gets them, each
/// have too many colours for libwebp to try them lossless
/// (``mixedLosslessColourLimit``): a photographic GIF.
public struct VariantEncoding: Sendable, Equatable {
    /// What a source holds, as far as choosing the encoding goes.
    public enum Content: Sendable, Equatable {
        /// Many colours and few flat areas: lossy only.
        case photo
        /// Few colours or flat fills: lossy and lossless, the smaller kept.
        case graphic
    }

    /// Pixels sampled to tell a photo from a graphic.
    public static let sampleSize = 4_096
    /// The largest share of distinct colours among the sampled pixels for
    /// which an image counts as a graphic. The Kodak photos have 0.30–0.77;
    /// GIFs, palette images and flat drawings 0.09 or less.
    public static let graphicColourShare = 0.125
    /// The smallest share of sampled pixels equal to their right-hand
    /// neighbour for which an image counts as a graphic (flat fills, a
    /// transparent background). The Kodak photos have 0.03–0.28; drawings,
    /// logos on transparency and screenshots 0.5 or more.
    public static let graphicFlatShare = 0.5

    /// The largest still tried lossless, in pixels: 4.6 megapixels (2700×1688
    /// is 4,557,600). libwebp's lossless took up to 0.33 µs a pixel here on
    /// graphics whose colours are a photo's, so a larger try would pass the
    /// 2 s the default work budget stands for, and its 24 bytes a pixel the
    /// default memory share; a larger graphic is written lossy only, which
    /// fits both, rather than refused (docs/work-budget.md).
    public static let maxLosslessTryPixels = 4_600_000

    /// The method lossy variants are written with unless the origin is set
    /// otherwise (`--webp-method`): 4, libwebp's own default, kept by
    /// measurement (docs/benchmarks.md: "The origin's WebP settings").
    public static let defaultMethod = 4

    /// Lossy quality, 1–100.
    public var quality: Int
    /// libwebp's lossy `method`, 0 (fastest) to 6 (smallest); see
    /// ``lossyOptions`` for what the fast methods 0–2 change besides.
    public var method: Int
    /// Whether graphics are also tried lossless. `false` writes every
    /// variant lossy, as the origin did before (kept to measure the cost).
    public var triesLossless: Bool

    /// Creates an encoding at `quality` and `method`.
    public init(quality: Int, method: Int = defaultMethod, triesLossless: Bool = true) {
        self.quality = quality
        self.method = method
        self.triesLossless = triesLossless
    }

    /// The WebP of `image`: lossy, or lossless when `image` is a graphic and
    /// that is smaller.
    ///
    /// - Parameter sourceFormat: The format of the file `image` comes from.
    /// - Throws: ``ImageCodecError`` from the encoder.
    public func encode(_ image: Image, sourceFormat: ImageFormat) throws(ImageCodecError) -> Data {
        let lossy = try WebPEncoder(options: lossyOptions).encode(image)
        guard triesLossless(image, sourceFormat: sourceFormat) else { return lossy }
        let lossless = try WebPEncoder(options: losslessOptions).encode(image)
        return lossless.count < lossy.count ? lossless : lossy
    }

    /// Whether a still of `pixels` from a `sourceFormat` file may be tried
    /// lossless, as far as its size and format tell (the cost model's
    /// question, before a pixel is decoded): at most
    /// ``maxLosslessTryPixels``, and not from a format that only holds
    /// photos.
    public static func mayTryLossless(pixels: Int, sourceFormat: ImageFormat) -> Bool {
        pixels <= maxLosslessTryPixels && content(of: sourceFormat) != .photo
    }

    /// What a still from a `format` file holds when the format alone tells:
    /// a photo for the formats cameras write, a graphic for a GIF; `nil`
    /// when only its pixels can tell.
    private static func content(of format: ImageFormat) -> Content? {
        switch format {
        case .jpeg, .avif, .heic: .photo
        case .gif: .graphic
        case .png, .apng, .webp: nil
        }
    }

    /// Whether the still `image` is tried lossless: the try is on, its size
    /// and format allow it (``mayTryLossless(pixels:sourceFormat:)``) and
    /// it is a graphic (``content(of:sourceFormat:)``, sampled only then).
    func triesLossless(_ image: Image, sourceFormat: ImageFormat) -> Bool {
        triesLossless && Self.mayTryLossless(pixels: image.pixelCount, sourceFormat: sourceFormat)
            && Self.content(of: image, sourceFormat: sourceFormat) == .graphic
    }

    /// What an animation in `source` holds: a photo only for a WebP whose
    /// headers say lossy (frames cut from a video), a graphic otherwise (GIF
    /// and APNG frames are palettes or lossless).
    public static func content(ofAnimation source: Data, format: ImageFormat) -> Content {
        guard format == .webp else { return .graphic }
        let compression = try? WebPFeatures(source).compression
        return compression == .lossy ? .photo : .graphic
    }

    /// What a still `image` from a `sourceFormat` file holds; see the type's
    /// summary for the rule.
    public static func content(of image: Image, sourceFormat: ImageFormat) -> Content {
        if let content = content(of: sourceFormat) { return content }
        let pixelCount = image.pixelCount
        // Icons and thumbnails: both encodes together cost well under a millisecond.
        guard pixelCount > sampleSize, image.width > 1 else { return .graphic }
        var colours = Set<UInt32>(minimumCapacity: sampleSize)
        var flat = 0
        image.pixels.withUnsafeBytes { raw in
            for index in 0..<sampleSize {
                // Spread evenly over the image, so a flat band cannot decide alone.
                var pixel = index * pixelCount / sampleSize
                if pixel % image.width == image.width - 1 { pixel -= 1 }
                let rgba = raw.loadUnaligned(fromByteOffset: pixel * 4, as: UInt32.self)
                if rgba == raw.loadUnaligned(fromByteOffset: pixel * 4 + 4, as: UInt32.self) { flat += 1 }
                colours.insert(rgba)
            }
        }
        let repeated = Double(colours.count) <= Double(sampleSize) * graphicColourShare
        let flatFills = Double(flat) >= Double(sampleSize) * graphicFlatShare
        return repeated || flatFills ? .graphic : .photo
    }

    /// libwebp's defaults at ``quality`` and ``method``, except that methods
    /// 0–2 get the strongest loop filter, 100. Those methods choose each
    /// macroblock's mode by distortion alone, without methods 3–6's
    /// rate-distortion pass, whose edge statistics tune the filter there;
    /// at 0–2 the filter leaves the bytes as they were (4 B more over the 24
    /// Kodak photos at method 2, none at 0 and 1), and 100 gave the best SSIM
    /// of strengths 60, 80 and 100 and sharpness 0, 2, 4 and 7
    /// (`make bench-webp-tuning`, q80, method 2: demo photos at 750 px 0.9782
    /// against 0.9760 at libwebp's 60, Kodak at 500 px 0.9603 against 0.9596;
    /// method 4: 0.9797, 0.9619).
    public var lossyOptions: WebPEncoder.Options {
        var options = WebPEncoder.Options(quality: Float(quality), method: method)
        if method < Self.fastestRateDistortionMethod {
            options.tuning.filterStrength = 100
        }
        return options
    }

    /// The lowest method with libwebp's rate-distortion mode decision.
    private static let fastestRateDistortionMethod = 3

    /// libwebp's lossless at its default effort; the RGB under transparent
    /// pixels is not kept, since no one sees it.
    var losslessOptions: WebPEncoder.Options {
        var options = WebPEncoder.Options(quality: 75, lossless: true)
        options.exact = false
        return options
    }
}
