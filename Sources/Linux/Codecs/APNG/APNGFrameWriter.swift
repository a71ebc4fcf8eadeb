import Foundation

/// Writes an APNG one frame at a time, for ``APNGEncoder``: `IHDR` and
/// `acTL` with the first frame, then per frame its `fcTL` and data (`IDAT`
/// for the first, `fdAT` after), cropped to what changed since the frame
/// before, which is the only frame it keeps.
struct APNGFrameWriter {
    private let canvasWidth: Int
    private let canvasHeight: Int
    private let declaredFrameCount: Int
    private let loopCount: Int
    private let writesAlpha: Bool
    private let cropsToChangedRegion: Bool
    private let frameEncoder: PNGEncoder
    private var writer = PNGChunkWriter()
    private var sequence: UInt32 = 0
    private var previous: Image?
    private var writtenFrames = 0
    /// Where the `acTL` chunk starts in the output, to correct its frame count at the end.
    private var controlOffset: Int?

    /// Starts an APNG of `animation`'s canvas size, frame count and loop count.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` for a negative loop count.
    init(
        _ animation: some AnimationFrames, writesAlpha: Bool, compressionLevel: Int, cropsToChangedRegion: Bool
    ) throws(ImageCodecError) {
        guard animation.loopCount >= 0 else {
            throw ImageCodecError.invalidArgument(.apng, "loop count must not be negative, got \(animation.loopCount)")
        }
        canvasWidth = animation.canvasWidth
        canvasHeight = animation.canvasHeight
        declaredFrameCount = animation.frameCount
        loopCount = animation.loopCount
        self.writesAlpha = writesAlpha
        self.cropsToChangedRegion = cropsToChangedRegion
        frameEncoder = PNGEncoder(options: .init(compressionLevel: compressionLevel))
    }

    /// Appends `frame`, which must have the canvas size.
    ///
    /// - Throws: ``ImageCodecError`` `.encodingFailed` when libspng fails.
    mutating func add(_ frame: AnimatedImage.Frame) throws(ImageCodecError) {
        guard frame.image.width == canvasWidth, frame.image.height == canvasHeight else {
            throw ImageCodecError.invalidArgument(
                .apng, "frame of \(frame.image.width)x\(frame.image.height) on a \(canvasWidth)x\(canvasHeight) canvas")
        }
        let isFirst = previous == nil
        let rect =
            if let previous, cropsToChangedRegion {
                APNGEncoder.changedRect(from: previous, to: frame.image)
            } else {
                PixelRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight)
            }
        let region = APNGEncoder.crop(frame.image, to: rect)
        let png = try frameEncoder.encodeBytes(region, forceAlpha: writesAlpha, format: .apng)
        let (chunks, dataChunks) = try png.withUnsafeBufferPointer { bytes throws(ImageCodecError) in
            let (chunks, truncated) = PNGChunkReader.chunks(bytes)
            guard !truncated else {
                throw ImageCodecError(.encodingFailed, format: .apng, "libspng wrote an incomplete PNG")
            }
            return (chunks, chunks.filter { $0.type == PNGChunkReader.IDAT })
        }
        if isFirst {
            guard let ihdr = chunks.first, ihdr.type == PNGChunkReader.IHDR else {
                throw ImageCodecError(.encodingFailed, format: .apng, "libspng wrote a PNG without IHDR")
            }
            writer.append(PNGChunkReader.IHDR, Array(png[ihdr.dataRange]))
            controlOffset = writer.bytes.count
            writer.append(
                PNGChunkReader.acTL, Self.animationControl(frameCount: declaredFrameCount, loopCount: loopCount))
        }
        writer.append(PNGChunkReader.fcTL, APNGEncoder.frameControl(sequence: sequence, rect: rect, frame: frame))
        sequence += 1
        for chunk in dataChunks {
            if isFirst {
                writer.append(PNGChunkReader.IDAT, Array(png[chunk.dataRange]))
            } else {
                var payload: [UInt8] = []
                payload.reserveCapacity(chunk.dataRange.count + 4)
                PNGChunkWriter.appendUInt32(sequence, to: &payload)
                payload.append(contentsOf: png[chunk.dataRange])
                writer.append(PNGChunkReader.fdAT, payload)
                sequence += 1
            }
        }
        previous = frame.image
        writtenFrames += 1
    }

    /// Ends the stream and returns it; `acTL` then counts the frames written,
    /// should the source have declared another number.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` when no frame was added.
    mutating func finish() throws(ImageCodecError) -> Data {
        guard writtenFrames > 0 else { throw ImageCodecError.invalidArgument(.apng, "an animation has no frames") }
        if writtenFrames != declaredFrameCount, let controlOffset {
            writer.overwriteChunk(
                at: controlOffset, with: Self.animationControl(frameCount: writtenFrames, loopCount: loopCount))
        }
        writer.appendEnd()
        return Data(writer.bytes)
    }

    private static func animationControl(frameCount: Int, loopCount: Int) -> [UInt8] {
        var control: [UInt8] = []
        PNGChunkWriter.appendUInt32(UInt32(clamping: frameCount), to: &control)
        PNGChunkWriter.appendUInt32(UInt32(clamping: loopCount), to: &control)
        return control
    }
}
