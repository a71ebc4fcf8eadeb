import Foundation
import ImageOrigin
import WebPBridge

/// Converts encoded bytes to another format, optionally scaled down: the
/// work behind `webp-bridge convert`.
struct ImageConverter: Sendable {
    /// The formats `convert` writes, chosen by the output file's extension.
    enum OutputFormat: String, CaseIterable, Sendable {
        case webp, jpeg, png, apng, avif, pam, ppm

        init?(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "webp": self = .webp
            case "jpg", "jpeg": self = .jpeg
            case "png": self = .png
            case "apng": self = .apng
            case "avif": self = .avif
            case "pam": self = .pam
            case "ppm": self = .ppm
            default: return nil
            }
        }

        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
        var keepsAnimation: Bool { self == .webp || self == .apng }
        var takesQuality: Bool { self == .webp || self == .jpeg || self == .avif }
        /// The image format written, `nil` for the uncompressed PAM and PPM.
        var imageFormat: ImageFormat? {
            switch self {
            case .webp: .webp
            case .jpeg: .jpeg
            case .png: .png
            case .apng: .apng
            case .avif: .avif
            case .pam, .ppm: nil
            }
        }
        static let names = "webp, jpg/jpeg, png, apng, avif, pam, ppm"
    }

    /// The WebP quality `convert` writes at unless told otherwise, and the
    /// ceiling of its searches: libwebp's own default, as `cwebp`'s.
    static let defaultWebPQuality = 75

    var format: OutputFormat
    /// WebP 0–100 (default 75), JPEG 1–100 (default 90) or AVIF 1–100
    /// (default ``AVIFEncoder/defaultQuality``).
    var quality: Int?
    /// `--quality auto[:TARGET]`: for a still written as WebP (lossy) or
    /// AVIF, the lowest quality up to the default whose ``SSIMULACRA2`` score
    /// reaches this (``QualitySearch``); an animation written as WebP at the
    /// lowest such quality for each of a few frames
    /// (``VariantEncoding/encode(_:content:searching:scorerPlanes:limits:beforeMixedEncoding:)``),
    /// as an AVIF sequence at the default.
    var qualityTarget: Double?
    /// AVIF encoder speed 0–10 (default ``AVIFEncoder/defaultSpeed``).
    var speed: Int?
    var lossless = false
    var maxWidth: Int?
    var maxHeight: Int?
    var limits = DecodingLimits.default

    /// Converts `input`. What the output format cannot hold (a canvas over
    /// WebP's 16,383 pixels a side, say) is refused from the headers before
    /// anything is decoded, and an animation that stays animated is
    /// converted frame by frame, in the memory of a few frames.
    func convert(_ input: Data) throws -> Data {
        // Damaged headers are left to the decoder below, whose errors say more.
        if let info = try? ImageInfo(input, limits: limits) {
            let size = ImageResizer.fittingSize(
                width: info.width, height: info.height, maxWidth: maxWidth, maxHeight: maxHeight)
            try format.imageFormat?.checkEncodable(width: size.width, height: size.height)
        }
        if format.keepsAnimation || format == .avif, let animation = try AnimationReader(input, limits: limits) {
            let scaled = scale(animation)
            switch format {
            case .webp:
                if lossless { return try webpEncoder.encode(scaled) }
                let search = qualityTarget.map {
                    ImageTransformer.search(for: .webp, target: $0, ceiling: Self.defaultWebPQuality)
                }
                // Lossy frames are checked for drift, and written whole when they drift, as the origin's are.
                return try VariantEncoding(quality: quality ?? Self.defaultWebPQuality, triesLossless: false)
                    .encode(scaled, content: .photo, searching: search, limits: limits).data
            case .apng: return try APNGEncoder().encode(scaled)
            default:
                // An AVIF sequence plays forever: an animation that plays a number of times is its first frame.
                if animation.loopCount == 0 {
                    let options = AVIFEncoder.Options(
                        quality: quality ?? AVIFEncoder.defaultQuality, speed: speed ?? AVIFEncoder.defaultSequenceSpeed
                    )
                    return try AVIFEncoder(options: options).encode(scaled)
                }
            }
        }
        let image = try ImageDecoder(limits: limits).decodeStill(input, fittingWidth: maxWidth, height: maxHeight)
        switch format {
        case .webp:
            guard let qualityTarget else { return try webpEncoder.encode(image) }
            let search = ImageTransformer.search(for: .webp, target: qualityTarget, ceiling: Self.defaultWebPQuality)
            return try VariantEncoding(quality: Self.defaultWebPQuality, triesLossless: false)
                .encode(image, sourceFormat: .png, searching: search).data
        case .jpeg: return try JPEGEncoder(options: .init(quality: quality ?? 90)).encode(image)
        case .png: return try PNGEncoder().encode(image)
        case .avif:
            if let qualityTarget {
                let search = ImageTransformer.search(
                    for: .avif, target: qualityTarget, ceiling: AVIFEncoder.defaultQuality)
                return try ImageTransformer.searchAVIF(image, search: search, speed: speed ?? AVIFEncoder.defaultSpeed)
                    .data
            }
            let options = AVIFEncoder.Options(
                quality: quality ?? AVIFEncoder.defaultQuality, speed: speed ?? AVIFEncoder.defaultSpeed)
            return try AVIFEncoder(options: options).encode(image)
        case .apng:
            let single = AnimatedImage(
                canvasWidth: image.width, canvasHeight: image.height,
                frames: [.init(image: image, durationMilliseconds: 100)], loopCount: 0)
            return try APNGEncoder().encode(single)
        case .pam: return PNMEncoder.pam(image)
        case .ppm: return PNMEncoder.ppm(image)
        }
    }

    /// The pixels converting `input` will process, decoding and encoding
    /// every frame that is kept, from its headers; `nil` when they cannot
    /// be read. The command keeps generous limits and says this instead
    /// when it passes what a server would take
    /// (``DecodingLimits/serverWorkPixels``).
    func workPixels(of input: Data) -> (info: ImageInfo, pixels: Int)? {
        guard let info = try? ImageInfo(input, limits: limits) else { return nil }
        let size = ImageResizer.fittingSize(
            width: info.width, height: info.height, maxWidth: maxWidth, maxHeight: maxHeight)
        // An AVIF sequence's frames are visited twice (the encoder looks for translucency first). A lossy
        // animated WebP's up to four times: to sample some, to encode, decoded again to check for
        // drift, and encoded whole should it drift.
        let frames: Int
        switch format {
        case .webp: frames = info.frames > 1 && !lossless ? 4 * info.frames : info.frames
        case .apng: frames = info.frames
        case .avif: frames = info.loopCount == 0 ? 2 * info.frames : 1
        default: frames = 1
        }
        return (info, frames * (info.width * info.height + size.width * size.height))
    }

    private var webpEncoder: WebPEncoder {
        WebPEncoder(options: .init(quality: Float(quality ?? Self.defaultWebPQuality), lossless: lossless))
    }

    /// `animation` scaled down to fit the box, one frame at a time as it is encoded.
    private func scale(_ animation: AnimationReader) -> MappedAnimation<AnimationReader> {
        let size = ImageResizer.fittingSize(
            width: animation.canvasWidth, height: animation.canvasHeight, maxWidth: maxWidth, maxHeight: maxHeight)
        let unscaled = size.width == animation.canvasWidth && size.height == animation.canvasHeight
        return MappedAnimation(animation, canvasWidth: size.width, canvasHeight: size.height) {
            image throws(ImageCodecError) in
            unscaled ? image : try ImageResizer().resize(image, width: size.width, height: size.height)
        }
    }
}
