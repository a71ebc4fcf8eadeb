/// Walks the chunks of a PNG stream without decoding anything. Shared by
/// format sniffing and the APNG decoder.
package struct PNGChunkReader {
    /// One chunk: its four-letter type and the range of its data.
    package struct Chunk {
        package var type: UInt32
        package var dataRange: Range<Int>
        package var typeName: String {
            String(
                decoding: [
                    UInt8(type >> 24), UInt8((type >> 16) & 0xFF), UInt8((type >> 8) & 0xFF), UInt8(type & 0xFF),
                ], as: UTF8.self)
        }
    }

    package static func fourCC(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { $0.reduce(0) { ($0 << 8) | UInt32($1) } }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The PNG specification's chunk name, case and all (its case bits mean something).
    package static let IHDR = fourCC("IHDR")
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The PNG specification's chunk name, case and all (its case bits mean something).
    package static let IDAT = fourCC("IDAT")
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The PNG specification's chunk name, case and all (its case bits mean something).
    package static let IEND = fourCC("IEND")
    package static let acTL = fourCC("acTL")
    package static let fcTL = fourCC("fcTL")
    package static let fdAT = fourCC("fdAT")
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The PNG specification's chunk name, case and all (its case bits mean something).
    package static let PLTE = fourCC("PLTE")
    package static let tRNS = fourCC("tRNS")

    /// The chunks of `bytes` after the signature, in order. Stops at `IEND`,
    /// at the end of the data, or at a chunk whose length runs past the end
    /// (then `truncated` is true).
    package static func chunks(_ bytes: UnsafeBufferPointer<UInt8>) -> (chunks: [Chunk], truncated: Bool) {
        var result: [Chunk] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(readUInt32(bytes, at: offset))
            let type = readUInt32(bytes, at: offset + 4)
            let dataStart = offset + 8
            guard length <= Int(Int32.max), dataStart + length + 4 <= bytes.count else {
                return (result, true)
            }
            result.append(Chunk(type: type, dataRange: dataStart..<(dataStart + length)))
            if type == IEND { return (result, false) }
            offset = dataStart + length + 4
        }
        return (result, true)
    }

    /// `true` when an `acTL` chunk appears before the first `IDAT`.
    package static func containsAnimationControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(readUInt32(bytes, at: offset))
            let type = readUInt32(bytes, at: offset + 4)
            if type == acTL { return true }
            if type == IDAT || type == IEND { return false }
            let (next, overflow) = offset.addingReportingOverflow(12 + length)
            if overflow { return false }
            offset = next
        }
        return false
    }

    package static func readUInt32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    package static func readUInt16(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
