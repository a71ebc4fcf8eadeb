import Foundation
import ImageCodecs

/// Converts encoded bytes to another format, optionally scaled down: the
/// work behind `webp-bridge convert`.
struct ImageConverter: Sendable {
    /// The formats `convert` writes, chosen by the output file's extension.
    enum OutputFormat: String, CaseIterable, Sendable {
        case webp, jpeg, png, apng, pam, ppm

        init?(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "webp": self = .webp
            case "jpg", "jpeg": self = .jpeg
            case "png": self = .png
            case "apng": self = .apng
            case "pam": self = .pam
            case "ppm": self = .ppm
            default: return nil
            }
        }

        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
        var keepsAnimation: Bool { self == .webp || self == .apng }
        var takesQuality: Bool { self == .webp || self == .jpeg }
        static let names = "webp, jpg/jpeg, png, apng, pam, ppm"
    }

    var format: OutputFormat
    /// WebP 0–100 (default 75) or JPEG 1–100 (default 90).
    var quality: Int?
    var lossless = false
    var maxWidth: Int?
    var maxHeight: Int?
    var limits = DecodingLimits.default

    func convert(_ input: Data) throws -> Data {
        let decoder = ImageDecoder(limits: limits)
        if format.keepsAnimation, case .animated(let animation) = try decoder.decode(input) {
            let scaled = try scale(animation)
            switch format {
            case .webp: return try webpEncoder.encode(scaled)
            default: return try APNGEncoder().encode(scaled)
            }
        }
        let image = try decoder.decodeStill(input, fittingWidth: maxWidth, height: maxHeight)
        switch format {
        case .webp: return try webpEncoder.encode(image)
        case .jpeg: return try JPEGEncoder(options: .init(quality: quality ?? 90)).encode(image)
        case .png: return try PNGEncoder().encode(image)
        case .apng:
            let single = AnimatedImage(
                canvasWidth: image.width, canvasHeight: image.height,
                frames: [.init(image: image, durationMilliseconds: 100)], loopCount: 0)
            return try APNGEncoder().encode(single)
        case .pam: return PNMEncoder.pam(image)
        case .ppm: return PNMEncoder.ppm(image)
        }
    }

    private var webpEncoder: WebPEncoder {
        WebPEncoder(options: .init(quality: Float(quality ?? 75), lossless: lossless))
    }

    private func scale(_ animation: AnimatedImage) throws -> AnimatedImage {
        let size = ImageResizer.fittingSize(
            width: animation.canvasWidth, height: animation.canvasHeight, maxWidth: maxWidth, maxHeight: maxHeight)
        guard size.width != animation.canvasWidth || size.height != animation.canvasHeight else { return animation }
        let frames = try animation.frames.map { frame in
            AnimatedImage.Frame(
                image: try ImageResizer().resize(frame.image, width: size.width, height: size.height),
                durationMilliseconds: frame.durationMilliseconds)
        }
        return AnimatedImage(
            canvasWidth: size.width, canvasHeight: size.height, frames: frames, loopCount: animation.loopCount)
    }
}
