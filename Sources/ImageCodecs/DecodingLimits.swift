/// Bounds on what a decoder will accept, checked from the headers before any
/// pixel buffer is allocated, so that decompression bombs fail fast.
public struct DecodingLimits: Sendable, Equatable {
    /// Largest accepted input, in bytes. Default 64 MiB.
    public var maxInputBytes: Int
    /// Largest accepted frame (or canvas), in pixels. Default 50 megapixels.
    public var maxPixelsPerFrame: Int
    /// Most frames accepted in an animation. Default 1,000.
    public var maxFrames: Int
    /// Most pixels summed over all frames of an animation. Default 1 gigapixel
    /// (4 GB of RGBA), which bounds an animation's decoded memory.
    public var maxTotalPixels: Int

    /// Creates limits; every value must be positive.
    public init(
        maxInputBytes: Int = 64 << 20,
        maxPixelsPerFrame: Int = 50_000_000,
        maxFrames: Int = 1_000,
        maxTotalPixels: Int = 1_000_000_000
    ) {
        precondition(maxInputBytes > 0 && maxPixelsPerFrame > 0 && maxFrames > 0 && maxTotalPixels > 0)
        self.maxInputBytes = maxInputBytes
        self.maxPixelsPerFrame = maxPixelsPerFrame
        self.maxFrames = maxFrames
        self.maxTotalPixels = maxTotalPixels
    }

    /// The defaults above.
    public static let `default` = DecodingLimits()

    /// Throws unless `byteCount` is within ``maxInputBytes``.
    public func checkInput(byteCount: Int, format: ImageFormat?) throws(ImageCodecError) {
        guard byteCount <= maxInputBytes else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format.map { "\($0) " } ?? "")input of \(byteCount.formattedWithSeparators) bytes exceeds the limit of \(maxInputBytes.formattedWithSeparators) bytes"
            )
        }
    }

    /// Throws unless a `width`×`height` frame is positive and within ``maxPixelsPerFrame``.
    public func checkFrame(width: Int, height: Int, format: ImageFormat) throws(ImageCodecError) {
        guard width > 0, height > 0 else {
            throw ImageCodecError.corrupt(format, "invalid dimensions \(width)x\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixelsPerFrame else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format) of \(width)x\(height) pixels exceeds the limit of \(maxPixelsPerFrame.formattedWithSeparators) pixels per frame"
            )
        }
    }

    /// Throws unless an animation of `frames` frames on a `width`×`height`
    /// canvas is within ``maxFrames`` and ``maxTotalPixels``.
    public func checkAnimation(width: Int, height: Int, frames: Int, format: ImageFormat) throws(ImageCodecError) {
        try checkFrame(width: width, height: height, format: format)
        guard frames <= maxFrames else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format) animation of \(frames.formattedWithSeparators) frames exceeds the limit of \(maxFrames.formattedWithSeparators) frames"
            )
        }
        let (total, overflow) = (width * height).multipliedReportingOverflow(by: frames)
        guard !overflow, total <= maxTotalPixels else {
            throw ImageCodecError(
                .limitExceeded, format: format,
                "\(format) animation of \(frames) frames at \(width)x\(height) exceeds the limit of \(maxTotalPixels.formattedWithSeparators) pixels in all"
            )
        }
    }
}
