/// An APNG's chunks, parsed and checked: the header chunks every frame
/// shares and, per frame, its `fcTL` fields and data chunks. Holds ranges
/// into the caller's bytes, which must outlive it.
struct APNGStream {
    enum DisposeOp: UInt8 {
        case none = 0
        case background = 1
        case previous = 2
    }
    enum BlendOp: UInt8 {
        case source = 0
        case over = 1
    }

    struct Frame {
        var rect: PixelRect
        var durationMilliseconds: Int
        var disposeOp: DisposeOp
        var blendOp: BlendOp
        /// Ranges of the frame's compressed data (fdAT without its sequence number).
        var data: [Range<Int>] = []
    }

    struct Animation {
        var frames: [Frame]
        var loopCount: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
    /// Colour type 4 or 6, or a tRNS chunk.
    let hasAlpha: Bool
    /// IHDR bytes 8..<13: bit depth, colour type, compression, filter, interlace.
    private let ihdrTail: [UInt8]
    private let paletteChunks: [PNGChunkReader.Chunk]
    /// `nil` when the stream has no `acTL` before IDAT.
    let animation: Animation?

    init(parsing bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(ImageCodecError) {
        self.bytes = bytes
        guard bytes.count >= 8, bytes.starts(with: ImageFormat.pngSignature) else {
            throw ImageCodecError.corrupt(.apng, "missing PNG signature")
        }
        let (chunks, truncated) = PNGChunkReader.chunks(bytes)
        guard let ihdr = chunks.first, ihdr.type == PNGChunkReader.IHDR, ihdr.dataRange.count == 13 else {
            if truncated { throw ImageCodecError.truncated(.apng, have: bytes.count, need: nil) }
            throw ImageCodecError.corrupt(.apng, "the first chunk is not a 13-byte IHDR")
        }
        try Self.verifyCRC(of: ihdr, in: bytes)
        let start = ihdr.dataRange.lowerBound
        width = Int(PNGChunkReader.readUInt32(bytes, at: start))
        height = Int(PNGChunkReader.readUInt32(bytes, at: start + 4))
        try limits.checkFrame(width: width, height: height, format: .apng)
        ihdrTail = Array(bytes[(start + 8)..<(start + 13)])
        let colorType = ihdrTail[1]

        var palette: [PNGChunkReader.Chunk] = []
        var control: (frameCount: Int, loopCount: Int)?
        var frames: [Frame] = []
        var seenIDAT = false
        var defaultImageIsFirstFrame = false
        var ignoresExtraFrames = false
        var expectedSequence: UInt32 = 0

        for chunk in chunks.dropFirst() {
            let isFrameChunk = chunk.type == PNGChunkReader.fcTL || chunk.type == PNGChunkReader.fdAT
            let isUsed =
                isFrameChunk || chunk.type == PNGChunkReader.IDAT || chunk.type == PNGChunkReader.acTL
                || chunk.type == PNGChunkReader.PLTE || chunk.type == PNGChunkReader.tRNS
            if isUsed { try Self.verifyCRC(of: chunk, in: bytes) }
            let data = chunk.dataRange
            if isFrameChunk {
                guard data.count >= 4 else { throw ImageCodecError.corrupt(.apng, "\(chunk.typeName) is too short") }
                let sequence = PNGChunkReader.readUInt32(bytes, at: data.lowerBound)
                guard sequence == expectedSequence else {
                    throw ImageCodecError.corrupt(
                        .apng, "\(chunk.typeName) has sequence number \(sequence), expected \(expectedSequence)")
                }
                expectedSequence += 1
            }
            switch chunk.type {
            case PNGChunkReader.PLTE where !seenIDAT, PNGChunkReader.tRNS where !seenIDAT:
                palette.append(chunk)
            case PNGChunkReader.acTL where !seenIDAT && control == nil:
                guard data.count == 8 else {
                    throw ImageCodecError.corrupt(.apng, "acTL is \(data.count) bytes, not 8")
                }
                let frameCount = Int(PNGChunkReader.readUInt32(bytes, at: data.lowerBound))
                guard frameCount > 0 else { throw ImageCodecError.corrupt(.apng, "acTL declares no frames") }
                try limits.checkAnimation(width: width, height: height, frames: frameCount, format: .apng)
                let plays = Int(PNGChunkReader.readUInt32(bytes, at: data.lowerBound + 4))
                control = (frameCount, AnimationTiming.playCount(.apng, declared: plays))
            case PNGChunkReader.fcTL:
                guard let control else { throw ImageCodecError.corrupt(.apng, "fcTL before acTL") }
                if frames.count == control.frameCount {
                    ignoresExtraFrames = true
                    continue
                }
                if frames.isEmpty && !seenIDAT { defaultImageIsFirstFrame = true }
                frames.append(try Self.frame(fromControl: data, in: bytes, canvasWidth: width, canvasHeight: height))
            case PNGChunkReader.IDAT:
                if defaultImageIsFirstFrame && frames.count == 1 { frames[0].data.append(data) }
                seenIDAT = true
            case PNGChunkReader.fdAT:
                guard !frames.isEmpty else { throw ImageCodecError.corrupt(.apng, "fdAT before fcTL") }
                if !ignoresExtraFrames {
                    frames[frames.count - 1].data.append((data.lowerBound + 4)..<data.upperBound)
                }
            default:
                break
            }
        }
        if truncated && chunks.last?.type != PNGChunkReader.IEND {
            throw ImageCodecError.truncated(.apng, have: bytes.count, need: nil)
        }
        paletteChunks = palette
        hasAlpha = colorType == 4 || colorType == 6 || palette.contains { $0.type == PNGChunkReader.tRNS }
        if let control {
            guard !frames.isEmpty else { throw ImageCodecError.corrupt(.apng, "acTL but no fcTL") }
            if let empty = frames.firstIndex(where: { $0.data.isEmpty }) {
                throw ImageCodecError.corrupt(.apng, "frame \(empty) has no image data")
            }
            animation = Animation(frames: frames, loopCount: control.loopCount)
        } else {
            animation = nil
        }
    }

    /// A standalone PNG holding only `frame`: IHDR with its size, the
    /// stream's PLTE and tRNS, its data as IDAT.
    func standalonePNG(for frame: Frame) -> [UInt8] {
        let dataSize = frame.data.reduce(0) { $0 + $1.count }
        var writer = PNGChunkWriter(reservingCapacity: dataSize + 1024)
        var ihdr: [UInt8] = []
        PNGChunkWriter.appendUInt32(UInt32(frame.rect.width), to: &ihdr)
        PNGChunkWriter.appendUInt32(UInt32(frame.rect.height), to: &ihdr)
        ihdr.append(contentsOf: ihdrTail)
        writer.append(PNGChunkReader.IHDR, ihdr)
        for chunk in paletteChunks {
            writer.append(chunk.type, UnsafeBufferPointer(rebasing: bytes[chunk.dataRange]))
        }
        for range in frame.data {
            writer.append(PNGChunkReader.IDAT, UnsafeBufferPointer(rebasing: bytes[range]))
        }
        writer.appendEnd()
        return writer.bytes
    }

    private static func frame(
        fromControl data: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, canvasWidth: Int, canvasHeight: Int
    ) throws(ImageCodecError) -> Frame {
        guard data.count == 26 else { throw ImageCodecError.corrupt(.apng, "fcTL is \(data.count) bytes, not 26") }
        let start = data.lowerBound
        let width = Int(PNGChunkReader.readUInt32(bytes, at: start + 4))
        let height = Int(PNGChunkReader.readUInt32(bytes, at: start + 8))
        let x = Int(PNGChunkReader.readUInt32(bytes, at: start + 12))
        let y = Int(PNGChunkReader.readUInt32(bytes, at: start + 16))
        guard width > 0, height > 0, x + width <= canvasWidth, y + height <= canvasHeight else {
            throw ImageCodecError.corrupt(
                .apng, "frame \(width)x\(height) at (\(x), \(y)) does not fit the \(canvasWidth)x\(canvasHeight) canvas"
            )
        }
        let numerator = Int(PNGChunkReader.readUInt16(bytes, at: start + 20))
        var denominator = Int(PNGChunkReader.readUInt16(bytes, at: start + 22))
        if denominator == 0 { denominator = 100 }
        guard let dispose = DisposeOp(rawValue: bytes[start + 24]), let blend = BlendOp(rawValue: bytes[start + 25])
        else {
            throw ImageCodecError.corrupt(
                .apng, "fcTL has dispose_op \(bytes[start + 24]), blend_op \(bytes[start + 25])")
        }
        return Frame(
            rect: PixelRect(x: x, y: y, width: width, height: height),
            durationMilliseconds: AnimationTiming.displayedDuration(
                milliseconds: (numerator * 1000 + denominator / 2) / denominator),
            disposeOp: dispose, blendOp: blend)
    }

    private static func verifyCRC(of chunk: PNGChunkReader.Chunk, in bytes: UnsafeBufferPointer<UInt8>)
        throws(ImageCodecError)
    {
        let typeStart = chunk.dataRange.lowerBound - 4
        let computed = CRC32.checksum(UnsafeBufferPointer(rebasing: bytes[typeStart..<chunk.dataRange.upperBound]))
        guard computed == PNGChunkReader.readUInt32(bytes, at: chunk.dataRange.upperBound) else {
            throw ImageCodecError.corrupt(.apng, "\(chunk.typeName) chunk fails its CRC check")
        }
    }
}
