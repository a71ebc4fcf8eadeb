/// Builds small GIFs by hand, so the GIF decoder is tested on files whose
/// pixels, disposal, delays and loops the test knows exactly. The image data
/// is LZW in its simplest valid form: every index as a literal code, with a
/// clear code often enough that the code size never grows.
struct GIFFixture {
    struct Frame {
        var x = 0
        var y = 0
        var width: Int
        var height: Int
        /// Palette indices, row by row (in display order; interlacing is done here).
        var indices: [UInt8]
        var delayCentiseconds = 10
        /// 0 unspecified, 1 keep, 2 background, 3 previous.
        var disposal = 1
        var transparentIndex: Int?
        /// A local colour table (RGB triples, a power of two entries), or the global one.
        var localColors: [UInt8]?
        var interlaced = false
        var writesControl = true
    }

    var width: Int
    var height: Int
    /// The global colour table: RGB triples, a power of two entries (2...256).
    var colors: [UInt8]
    var frames: [Frame]
    /// The NETSCAPE2.0 loop value, or `nil` for no extension.
    var netscapeLoops: Int?
    var writesTrailer = true

    var bytes: [UInt8] {
        var out = Array("GIF89a".utf8)
        out += le16(width) + le16(height)
        out += [0x80 | UInt8(Self.sizeBits(colors.count / 3)), 0, 0]
        out += colors
        if let netscapeLoops {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(netscapeLoops) + [0]
        }
        for frame in frames {
            if frame.writesControl {
                let packed = UInt8(frame.disposal << 2) | (frame.transparentIndex == nil ? 0 : 1)
                out += [0x21, 0xF9, 4, packed] + le16(frame.delayCentiseconds)
                out += [UInt8(frame.transparentIndex ?? 0), 0]
            }
            out += [0x2C] + le16(frame.x) + le16(frame.y) + le16(frame.width) + le16(frame.height)
            var packed: UInt8 = frame.interlaced ? 0x40 : 0
            if let local = frame.localColors { packed |= 0x80 | UInt8(Self.sizeBits(local.count / 3)) }
            out.append(packed)
            if let local = frame.localColors { out += local }
            let colorCount = (frame.localColors ?? colors).count / 3
            out += Self.lzw(Self.storageOrder(frame), colorCount: colorCount)
        }
        if writesTrailer { out.append(0x3B) }
        return out
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    private static func sizeBits(_ entries: Int) -> Int {
        var bits = 0
        while (2 << bits) < entries { bits += 1 }
        return bits
    }

    private static func storageOrder(_ frame: Frame) -> [UInt8] {
        guard frame.interlaced else { return frame.indices }
        var out: [UInt8] = []
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            for y in stride(from: start, to: frame.height, by: step) {
                out += frame.indices[(y * frame.width)..<((y + 1) * frame.width)]
            }
        }
        return out
    }

    /// Minimum code size byte, then the LZW data in sub-blocks, then the terminator.
    private static func lzw(_ indices: [UInt8], colorCount: Int) -> [UInt8] {
        let minimumCodeSize = max(2, sizeBits(colorCount) + 1)
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        let codeSize = minimumCodeSize + 1
        // The decoder adds a table entry per code after the first following a
        // clear; clearing before the table reaches 2^codeSize keeps the size fixed.
        let literalsPerClear = (1 << codeSize) - clear - 3
        var codes: [Int] = []
        for (position, index) in indices.enumerated() {
            if position % literalsPerClear == 0 { codes.append(clear) }
            codes.append(Int(index))
        }
        codes.append(end)
        var data: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += codeSize
            while bits >= 8 {
                data.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { data.append(UInt8(accumulator & 0xFF)) }
        var out: [UInt8] = [UInt8(minimumCodeSize)]
        var offset = 0
        while offset < data.count {
            let count = min(255, data.count - offset)
            out.append(UInt8(count))
            out += data[offset..<(offset + count)]
            offset += count
        }
        out.append(0)
        return out
    }
}
