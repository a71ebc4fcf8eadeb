/// The CRC-32 of ISO 3309 / ITU-T V.42 that PNG chunks carry (polynomial
/// 0xEDB88320, reflected), computed in Swift so the APNG writer and reader do
/// not need zlib's `crc32`.
struct CRC32 {
    private(set) var value: UInt32 = 0

    /// Feeds `bytes` into the checksum.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var crc = ~value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        value = ~crc
    }

    /// Feeds `bytes` into the checksum.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var entry = UInt32(index)
        for _ in 0..<8 {
            entry = entry & 1 == 1 ? 0xEDB8_8320 ^ (entry >> 1) : entry >> 1
        }
        return entry
    }
}
