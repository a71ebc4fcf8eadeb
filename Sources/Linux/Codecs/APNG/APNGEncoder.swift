public import Foundation

/// Encodes an ``AnimatedImage`` as an animated PNG (APNG).
///
/// Each frame is compressed by libspng as a standalone PNG whose IDAT payload
/// is rewrapped: frame 0 as the default image's `IDAT`, later frames as
/// `fdAT` chunks, each announced by an `fcTL`, all numbered in one sequence.
/// Every frame uses the same colour type: RGBA when any frame has a
/// non-opaque pixel, RGB otherwise. Frames are stored with `dispose_op`
/// none and `blend_op` source, so a frame can be reduced to the rectangle
/// that changed since the previous one without changing what is shown.
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct APNGEncoder: Sendable {
    /// Encoder settings.
    public struct Options: Sendable, Equatable {
        /// zlib compression level, 0 to 9. Default 6.
        public var compressionLevel: Int
        /// Store only the rectangle that differs from the previous frame.
        /// Default `true`: lossless, and much smaller for typical animations.
        public var cropsToChangedRegion: Bool

        /// Creates options.
        public init(compressionLevel: Int = 6, cropsToChangedRegion: Bool = true) {
            self.compressionLevel = compressionLevel
            self.cropsToChangedRegion = cropsToChangedRegion
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

    /// Encodes `animation` as APNG, keeping its loop count and each frame's
    /// duration (as `delay_num/delay_den`: milliseconds over 1000, or coarser
    /// units past 65.5 seconds).
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` for a negative loop
    ///   count or a bad compression level, `.encodingFailed` when libspng fails.
    public func encode(_ animation: AnimatedImage) throws(ImageCodecError) -> Data {
        var writer = try APNGFrameWriter(
            animation, writesAlpha: animation.frames.contains { !$0.image.isOpaque },
            compressionLevel: options.compressionLevel,
            cropsToChangedRegion: options.cropsToChangedRegion)
        for frame in animation.frames { try writer.add(frame) }
        return try writer.finish()
    }

    /// Encodes frames as `animation` yields them, holding only the frame
    /// before each (for the changed rectangle) and the output so far, so an
    /// ``AnimationReader`` converts in the memory of a few frames.
    ///
    /// The output is the bytes ``encode(_:)-(AnimatedImage)`` writes for the
    /// same frames: RGB until a frame has a pixel that is not opaque, when
    /// the encoding starts over in RGBA (visiting the frames again, up to
    /// that frame a second time — headers cannot tell, since a frame that
    /// leaves part of the canvas uncovered leaves it transparent).
    ///
    /// - Throws: ``ImageCodecError`` as ``encode(_:)-(AnimatedImage)`` does,
    ///   and what visiting the frames throws.
    public func encode(_ animation: some AnimationFrames) throws(ImageCodecError) -> Data {
        var writesAlpha = false
        while true {
            var writer = try APNGFrameWriter(
                animation, writesAlpha: writesAlpha, compressionLevel: options.compressionLevel,
                cropsToChangedRegion: options.cropsToChangedRegion)
            var needsAlpha = false
            do {
                try animation.forEachFrame { frame throws(ImageCodecError) in
                    if !writesAlpha && !frame.image.isOpaque {
                        needsAlpha = true
                        throw .visitStopped
                    }
                    try writer.add(frame)
                }
                return try writer.finish()
            } catch {
                guard needsAlpha else { throw error }
                writesAlpha = true
            }
        }
    }

    /// The 26 bytes of an `fcTL` chunk: dispose none, blend source.
    static func frameControl(sequence: UInt32, rect: PixelRect, frame: AnimatedImage.Frame) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(26)
        PNGChunkWriter.appendUInt32(sequence, to: &bytes)
        PNGChunkWriter.appendUInt32(UInt32(rect.width), to: &bytes)
        PNGChunkWriter.appendUInt32(UInt32(rect.height), to: &bytes)
        PNGChunkWriter.appendUInt32(UInt32(rect.x), to: &bytes)
        PNGChunkWriter.appendUInt32(UInt32(rect.y), to: &bytes)
        let (numerator, denominator) = delayFraction(milliseconds: frame.durationMilliseconds)
        PNGChunkWriter.appendUInt16(numerator, to: &bytes)
        PNGChunkWriter.appendUInt16(denominator, to: &bytes)
        bytes.append(0)  // dispose_op: APNG_DISPOSE_OP_NONE
        bytes.append(0)  // blend_op: APNG_BLEND_OP_SOURCE
        return bytes
    }

    /// `milliseconds` as `delay_num/delay_den`: exact in thousandths of a
    /// second up to 65,535 ms, then in hundredths, tenths or whole seconds.
    static func delayFraction(milliseconds: Int) -> (numerator: UInt16, denominator: UInt16) {
        let duration = max(0, milliseconds)
        for denominator in [1000, 100, 10, 1] {
            let numerator = (duration * denominator + 500) / 1000
            if numerator <= Int(UInt16.max) { return (UInt16(numerator), UInt16(denominator)) }
        }
        return (UInt16.max, 1)
    }

    /// The smallest rectangle holding every pixel that differs between two
    /// same-size images; a 1×1 rectangle when they are identical.
    static func changedRect(from previous: Image, to current: Image) -> PixelRect {
        let width = current.width
        let height = current.height
        var minX = width
        var minY = height
        var maxX = -1
        var maxY = -1
        previous.pixels.withUnsafeBytes { oldRaw in
            current.pixels.withUnsafeBytes { newRaw in
                let old = oldRaw.bindMemory(to: UInt32.self)
                let new = newRaw.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width
                    var first = -1
                    var x = 0
                    while x < width {
                        if old[row + x] != new[row + x] {
                            first = x
                            break
                        }
                        x += 1
                    }
                    if first < 0 { continue }
                    var last = width - 1
                    while old[row + last] == new[row + last] { last -= 1 }
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        if maxX < 0 { return PixelRect(x: 0, y: 0, width: 1, height: 1) }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The pixels of `image` inside `rect`, as an image.
    static func crop(_ image: Image, to rect: PixelRect) -> Image {
        if rect == PixelRect(x: 0, y: 0, width: image.width, height: image.height) { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(rect.width * rect.height * 4)
        for row in rect.y..<(rect.y + rect.height) {
            let start = (row * image.width + rect.x) * 4
            pixels.append(contentsOf: image.pixels[start..<(start + rect.width * 4)])
        }
        return Image(width: rect.width, height: rect.height, pixels: pixels, hasAlpha: image.hasAlpha)
    }
}
