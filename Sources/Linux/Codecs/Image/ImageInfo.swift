public import Foundation

/// What an image file is, read from its headers (no full decode, except
/// that a GIF's frames are counted by walking its records).
public struct ImageInfo: Sendable, Equatable, Codable {
    /// The container format.
    public var format: ImageFormat
    /// Width (canvas width for animations) in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Whether the file declares alpha (an alpha channel, tRNS, or GIF transparency).
    public var alpha: Bool
    /// Number of frames; 1 for a still image.
    public var frames: Int
    /// Animation loop count, 0 for forever (and for still images).
    public var loopCount: Int
    /// File size in bytes.
    public var bytes: Int
    /// The scans (`SOS` segments) a JPEG is coded in: 1 for a baseline
    /// JPEG, about 10 for a progressive one (``JPEGDecoder/scanCount(_:)``);
    /// 1 for every other format.
    public var scans: Int
    /// Bytes a still's decoder holds for the whole image, whatever size it
    /// is decoded at, beside the pixels it returns; 0 when it holds no more
    /// than some rows. A JPEG of more than one scan keeps every block's DCT
    /// coefficients (``JPEGDecoder/Header/coefficientBytes``); a lossless
    /// WebP, or a lossy one with alpha, about
    /// ``WebPFeatures/wholeImageBytesPerPixel`` a pixel. A one-scan JPEG
    /// and an opaque lossy WebP are decoded a row of blocks at a time;
    /// PNG, GIF and AVIF decode whole, which their pixels count already.
    public var wholeImageDecoderBytes: Int

    public init(
        format: ImageFormat, width: Int, height: Int, alpha: Bool, frames: Int, loopCount: Int, bytes: Int,
        scans: Int = 1, wholeImageDecoderBytes: Int = 0
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.alpha = alpha
        self.frames = frames
        self.loopCount = loopCount
        self.bytes = bytes
        self.scans = scans
        self.wholeImageDecoderBytes = wholeImageDecoderBytes
    }

    /// Reads the info of `data`.
    ///
    /// - Throws: ``ImageCodecError`` when the format is unknown or the headers are damaged.
    public init(_ data: Data, limits: DecodingLimits = .default) throws(ImageCodecError) {
        let format = try ImageFormat.sniff(data)
        switch format {
        case .webp:
            let features = try WebPFeatures(data)
            let animation = features.isAnimated ? try WebPDecoder(limits: limits).animationInfo(data) : nil
            self.init(
                format: .webp, width: features.width, height: features.height, alpha: features.hasAlpha,
                frames: animation?.frameCount ?? 1, loopCount: animation?.loopCount ?? 0, bytes: data.count,
                wholeImageDecoderBytes: features.isAnimated ? 0 : features.wholeImageDecoderBytes)
        case .jpeg:
            let header = try JPEGDecoder(limits: limits).readHeader(data)
            let scans = JPEGDecoder.scanCount(data)
            self.init(
                format: .jpeg, width: header.width, height: header.height, alpha: false, frames: 1, loopCount: 0,
                bytes: data.count, scans: scans, wholeImageDecoderBytes: scans > 1 ? header.coefficientBytes : 0)
        case .png, .apng:
            let header = try PNGDecoder.readHeader(data)
            self.init(
                format: format, width: header.width, height: header.height, alpha: header.hasAlpha,
                frames: header.frameCount, loopCount: header.loopCount ?? 0, bytes: data.count)
        case .gif:
            let header = try GIFDecoder.readHeader(data)
            self.init(
                format: .gif, width: header.width, height: header.height, alpha: header.hasAlpha,
                frames: header.frameCount, loopCount: header.loopCount, bytes: data.count)
        case .avif:
            let header = try AVIFDecoder(limits: limits).readHeader(data)
            self.init(
                format: .avif, width: header.width, height: header.height, alpha: header.hasAlpha,
                frames: header.frameCount, loopCount: 0, bytes: data.count)
        case .heic:
            throw ImageDecoder.heicUnsupported
        }
    }
}
