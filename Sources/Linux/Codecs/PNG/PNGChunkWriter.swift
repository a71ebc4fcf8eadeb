/// Builds a PNG stream chunk by chunk: the signature, then each chunk with
/// its length and CRC. Used by the APNG encoder and, to wrap single APNG
/// frames as standalone PNGs, by the APNG decoder.
struct PNGChunkWriter {
    /// The stream so far, starting with the PNG signature.
    private(set) var bytes: [UInt8] = ImageFormat.pngSignature

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity + 8)
    }

    /// Appends one chunk of `type` holding `data`.
    mutating func append(_ type: UInt32, _ data: UnsafeBufferPointer<UInt8>) {
        precondition(data.count <= Int(Int32.max), "a PNG chunk holds at most 2^31-1 bytes")
        Self.appendUInt32(UInt32(data.count), to: &bytes)
        let typeStart = bytes.count
        Self.appendUInt32(type, to: &bytes)
        bytes.append(contentsOf: data)
        let crc = bytes.withUnsafeBufferPointer { all in
            CRC32.checksum(UnsafeBufferPointer(rebasing: all[typeStart...]))
        }
        Self.appendUInt32(crc, to: &bytes)
    }

    /// Appends one chunk of `type` holding `data`.
    mutating func append(_ type: UInt32, _ data: [UInt8]) {
        data.withUnsafeBufferPointer { append(type, $0) }
    }

    /// Replaces the data of the chunk that starts at byte `offset` with
    /// `data` of the same length, and its CRC.
    mutating func overwriteChunk(at offset: Int, with data: [UInt8]) {
        let dataStart = offset + 8
        precondition(dataStart + data.count + 4 <= bytes.count, "no chunk of that size at \(offset)")
        bytes.replaceSubrange(dataStart..<(dataStart + data.count), with: data)
        let crc = bytes.withUnsafeBufferPointer { all in
            CRC32.checksum(UnsafeBufferPointer(rebasing: all[(offset + 4)..<(dataStart + data.count)]))
        }
        var crcBytes: [UInt8] = []
        Self.appendUInt32(crc, to: &crcBytes)
        bytes.replaceSubrange((dataStart + data.count)..<(dataStart + data.count + 4), with: crcBytes)
    }

    /// Appends the `IEND` chunk.
    mutating func appendEnd() {
        append(PNGChunkReader.IEND, [])
    }

    static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 24))
        bytes.append(UInt8((value >> 16) & 0xFF))
        bytes.append(UInt8((value >> 8) & 0xFF))
        bytes.append(UInt8(value & 0xFF))
    }

    static func appendUInt16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }
}
