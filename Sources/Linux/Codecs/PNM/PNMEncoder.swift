public import Foundation

/// Writes PAM (RGBA) and binary PPM (RGB) byte for byte as libwebp's
/// reference `dwebp` does, so outputs can be checked against its MD5 sums.
public enum PNMEncoder {
    /// `P7` PAM with `TUPLTYPE RGB_ALPHA`: every pixel's RGBA, straight alpha.
    public static func pam(_ image: Image) -> Data {
        var data = Data(
            "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.append(contentsOf: image.pixels)
        return data
    }

    /// `P6` PPM: every pixel's RGB; alpha is dropped (not blended), as `dwebp -ppm`.
    public static func ppm(_ image: Image) -> Data {
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        var rgb = [UInt8](repeating: 0, count: image.pixelCount * 3)
        image.pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { destination in
                for pixel in 0..<image.pixelCount {
                    destination[pixel * 3] = source[pixel * 4]
                    destination[pixel * 3 + 1] = source[pixel * 4 + 1]
                    destination[pixel * 3 + 2] = source[pixel * 4 + 2]
                }
            }
        }
        data.append(contentsOf: rgb)
        return data
    }
}
