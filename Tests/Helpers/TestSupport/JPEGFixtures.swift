public import Foundation

/// JPEG bytes changed in ways the codecs must notice, for tests.
public enum JPEGFixtures {
    /// A minimal big-endian EXIF APP1 segment with one orientation entry,
    /// inserted right after SOI.
    public static func insertingExifOrientation(_ value: UInt8, into jpeg: Data) -> Data {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // MM, 42, IFD at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, value, 0x00, 0x00,  // orientation SHORT
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        result.append(jpeg.dropFirst(2))
        return result
    }
}
