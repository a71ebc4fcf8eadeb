@testable import WebPBridge

/// Builds small PNG and APNG streams by hand — any colour type and bit
/// depth, with PLTE/tRNS, and APNG frames with any dispose/blend op — so the
/// decoders are tested on files whose pixels the test knows exactly. The
/// zlib streams use stored (uncompressed) deflate blocks.
enum PNGFixture {
    static func fourCC(_ name: String) -> UInt32 {
        name.utf8.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// IHDR data.
    static func header(width: Int, height: Int, bitDepth: Int, colorType: Int, interlace: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        PNGChunkWriter.appendUInt32(UInt32(width), to: &bytes)
        PNGChunkWriter.appendUInt32(UInt32(height), to: &bytes)
        bytes += [UInt8(bitDepth), UInt8(colorType), 0, 0, UInt8(interlace)]
        return bytes
    }

    /// A zlib stream of `rows`, each prefixed with filter type 0 (none).
    static func zlibStored(rows: [[UInt8]]) -> [UInt8] {
        var raw: [UInt8] = []
        for row in rows {
            raw.append(0)
            raw += row
        }
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let isFinal = offset + count == raw.count
            out.append(isFinal ? 1 : 0)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        PNGChunkWriter.appendUInt32(b << 16 | a, to: &out)
        return out
    }

    /// A still PNG.
    static func png(
        width: Int, height: Int, bitDepth: Int, colorType: Int, rows: [[UInt8]],
        palette: [UInt8]? = nil, transparency: [UInt8]? = nil
    ) -> [UInt8] {
        var writer = PNGChunkWriter()
        writer.append(
            PNGChunkReader.IHDR, header(width: width, height: height, bitDepth: bitDepth, colorType: colorType))
        if let palette { writer.append(PNGChunkReader.PLTE, palette) }
        if let transparency { writer.append(PNGChunkReader.tRNS, transparency) }
        writer.append(PNGChunkReader.IDAT, zlibStored(rows: rows))
        writer.appendEnd()
        return writer.bytes
    }

    /// One APNG frame: RGBA pixels of `rect`.
    struct Frame {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var rgba: [UInt8]
        var delayNumerator: UInt16 = 1
        var delayDenominator: UInt16 = 10
        var disposeOp: UInt8 = 0
        var blendOp: UInt8 = 0
    }

    /// An 8-bit RGBA APNG whose default image is frame 0 (or, with
    /// `hiddenDefault`, a separate image that is not part of the animation).
    static func apng(
        width: Int, height: Int, frames: [Frame], loopCount: UInt32 = 0, hiddenDefault: [UInt8]? = nil,
        declaredFrameCount: Int? = nil
    ) -> [UInt8] {
        var writer = PNGChunkWriter()
        writer.append(PNGChunkReader.IHDR, header(width: width, height: height, bitDepth: 8, colorType: 6))
        var control: [UInt8] = []
        PNGChunkWriter.appendUInt32(UInt32(declaredFrameCount ?? frames.count), to: &control)
        PNGChunkWriter.appendUInt32(loopCount, to: &control)
        writer.append(PNGChunkReader.acTL, control)
        var sequence: UInt32 = 0
        if let hiddenDefault {
            writer.append(PNGChunkReader.IDAT, zlibStored(rows: rows(of: hiddenDefault, width: width)))
        }
        for (index, frame) in frames.enumerated() {
            var fcTL: [UInt8] = []
            PNGChunkWriter.appendUInt32(sequence, to: &fcTL)
            sequence += 1
            for value in [frame.width, frame.height, frame.x, frame.y] {
                PNGChunkWriter.appendUInt32(UInt32(value), to: &fcTL)
            }
            PNGChunkWriter.appendUInt16(frame.delayNumerator, to: &fcTL)
            PNGChunkWriter.appendUInt16(frame.delayDenominator, to: &fcTL)
            fcTL += [frame.disposeOp, frame.blendOp]
            writer.append(PNGChunkReader.fcTL, fcTL)
            let data = zlibStored(rows: rows(of: frame.rgba, width: frame.width))
            if index == 0 && hiddenDefault == nil {
                writer.append(PNGChunkReader.IDAT, data)
            } else {
                var fdAT: [UInt8] = []
                PNGChunkWriter.appendUInt32(sequence, to: &fdAT)
                sequence += 1
                writer.append(PNGChunkReader.fdAT, fdAT + data)
            }
        }
        writer.appendEnd()
        return writer.bytes
    }

    static func rows(of rgba: [UInt8], width: Int) -> [[UInt8]] {
        stride(from: 0, to: rgba.count, by: width * 4).map { Array(rgba[$0..<($0 + width * 4)]) }
    }

    /// `count` pixels of one RGBA colour.
    static func solid(_ rgba: [UInt8], count: Int) -> [UInt8] {
        Array([[UInt8]](repeating: rgba, count: count).joined())
    }
}
