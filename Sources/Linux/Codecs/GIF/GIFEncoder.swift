public import Foundation

/// Encodes GIF89a with giflib: an ``AnimatedImage`` or a still ``Image``.
///
/// Each frame gets its own palette of up to 255 colours, chosen by median
/// cut without dithering (frame 0's is the global colour table, later ones
/// are local), plus one transparent index when the frame has pixels with
/// alpha below 128 (GIF has 1-bit alpha: alpha from 128 up is opaque).
/// Frames are stored whole. When any frame is not opaque every frame is
/// disposed to background, so a transparent pixel never shows the frame
/// before it; otherwise frames are kept, as usual.
///
/// Timing and looping match ``GIFDecoder``: durations are rounded to GIF's
/// 10 ms units (at most 655.35 s); `loopCount` 0 (forever) writes a
/// NETSCAPE2.0 loop value of 0, 1 (play once) writes no loop extension, and
/// N > 1 writes N − 1 repeats. A still image has no loop extension.
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct GIFEncoder: Sendable {
    /// Encoder settings.
    public struct Options: Sendable, Equatable {
        /// The most opaque colours in a frame's palette, 2 to 255. Default 255.
        public var maxColors: Int

        /// Creates options.
        public init(maxColors: Int = 255) {
            self.maxColors = maxColors
        }

        /// The defaults above.
        public static let `default` = Options()
    }

    /// The settings used by ``encode(_:)``.
    public var options: Options

    /// Creates an encoder.
    public init(options: Options = .default) {
        self.options = options
    }

    /// Encodes `animation` as an animated GIF.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` for a negative loop
    ///   count, a canvas over 65,535 pixels a side or `maxColors` outside
    ///   2...255; `.encodingFailed` (with giflib's message) when giflib fails.
    public func encode(_ animation: AnimatedImage) throws(ImageCodecError) -> Data {
        let loopValue = try Self.loopValue(animation.loopCount)
        let timedFrames = animation.frames.map { ($0.image, Optional(Self.centiseconds($0.durationMilliseconds))) }
        return try encode(
            timedFrames, width: animation.canvasWidth, height: animation.canvasHeight, loopValue: loopValue)
    }

    /// Encodes `image` as a one-frame GIF.
    ///
    /// - Throws: ``ImageCodecError`` as ``encode(_:)-(AnimatedImage)`` does.
    public func encode(_ image: Image) throws(ImageCodecError) -> Data {
        try encode([(image, nil)], width: image.width, height: image.height, loopValue: nil)
    }

    /// The NETSCAPE2.0 loop value for a play count (0 = forever): `nil`
    /// (no extension) for one play, else the repeats after the first, at
    /// most 65,535.
    static func loopValue(_ loopCount: Int) throws(ImageCodecError) -> Int? {
        guard loopCount >= 0 else {
            throw ImageCodecError.invalidArgument(.gif, "loop count must not be negative, got \(loopCount)")
        }
        return switch loopCount {
        case 0: 0
        case 1: nil
        default: min(loopCount - 1, Int(UInt16.max))
        }
    }

    /// A duration in GIF's units: hundredths of a second, rounded, at most 65,535.
    static func centiseconds(_ milliseconds: Int) -> Int {
        min(max(0, (milliseconds + 5) / 10), Int(UInt16.max))
    }

    private func encode(
        _ frames: [(image: Image, delay: Int?)], width: Int, height: Int, loopValue: Int?
    ) throws(ImageCodecError) -> Data {
        let disposal: GIFWriter.Disposal = frames.allSatisfy { $0.image.isOpaque } ? .keep : .background
        let stream = try GIFFrameStream(
            width: width, height: height, loopValue: loopValue, disposal: disposal, maxColors: options.maxColors)
        for frame in frames { try stream.add(frame.image, delay: frame.delay) }
        return try stream.finish()
    }

    /// Encodes frames as `animation` yields them, holding one frame at a
    /// time, so an ``AnimationReader`` converts in the memory of a few frames.
    ///
    /// The output is the bytes ``encode(_:)-(AnimatedImage)`` writes for the
    /// same frames: frames are kept under the next until one is not opaque,
    /// when the encoding starts over disposing every frame to background.
    ///
    /// - Throws: ``ImageCodecError`` as ``encode(_:)-(AnimatedImage)`` does,
    ///   and what visiting the frames throws.
    public func encode(_ animation: some AnimationFrames) throws(ImageCodecError) -> Data {
        let loopValue = try Self.loopValue(animation.loopCount)
        var disposal = GIFWriter.Disposal.keep
        while true {
            let stream = try GIFFrameStream(
                width: animation.canvasWidth, height: animation.canvasHeight, loopValue: loopValue,
                disposal: disposal, maxColors: options.maxColors)
            var needsBackgroundDisposal = false
            do {
                try animation.forEachFrame { frame throws(ImageCodecError) in
                    if disposal == .keep && !frame.image.isOpaque {
                        needsBackgroundDisposal = true
                        throw .visitStopped
                    }
                    try stream.add(frame.image, delay: Self.centiseconds(frame.durationMilliseconds))
                }
                return try stream.finish()
            } catch {
                guard needsBackgroundDisposal else { throw error }
                disposal = .background
            }
        }
    }
}

/// Writes a GIF one frame at a time for ``GIFEncoder``: the screen (with
/// the first frame's palette as the global colour table) and loop
/// extension with the first frame, then each frame quantized on its own.
private final class GIFFrameStream {
    private let width: Int
    private let height: Int
    private let loopValue: Int?
    private let disposal: GIFWriter.Disposal
    private let quantizer: MedianCutQuantizer
    private let writer: GIFWriter
    private var frameCount = 0

    init(width: Int, height: Int, loopValue: Int?, disposal: GIFWriter.Disposal, maxColors: Int) throws(ImageCodecError)
    {
        guard (2...255).contains(maxColors) else {
            throw ImageCodecError.invalidArgument(.gif, "GIF palettes hold 2 to 255 opaque colours, got \(maxColors)")
        }
        guard width <= 65_535, height <= 65_535 else {
            throw ImageCodecError.invalidArgument(
                .gif, "GIF allows at most 65,535 pixels a side, got \(width)x\(height)")
        }
        self.width = width
        self.height = height
        self.loopValue = loopValue
        self.disposal = disposal
        quantizer = MedianCutQuantizer(maxColors: maxColors)
        writer = try GIFWriter()
    }

    func add(_ image: Image, delay: Int?) throws(ImageCodecError) {
        let quantized = quantizer.quantize(image)
        if frameCount == 0 {
            try writer.putScreen(width: width, height: height, colors: quantized.colors)
            if let loopValue { try writer.putLoopExtension(value: loopValue) }
        }
        if delay != nil || quantized.transparentIndex != nil {
            try writer.putGraphicsControl(
                delayCentiseconds: delay ?? 0, disposal: disposal, transparentIndex: quantized.transparentIndex)
        }
        try writer.putImage(
            x: 0, y: 0, width: width, height: height, colors: frameCount == 0 ? nil : quantized.colors,
            indices: quantized.indices)
        frameCount += 1
    }

    func finish() throws(ImageCodecError) -> Data {
        guard frameCount > 0 else { throw ImageCodecError.invalidArgument(.gif, "an animation has no frames") }
        return try writer.finish()
    }
}
