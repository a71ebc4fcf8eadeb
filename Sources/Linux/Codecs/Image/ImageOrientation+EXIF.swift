/// Reading the orientation from a JPEG's EXIF, and turning pixels upright
/// (the enum and its geometry are portable: Coding/Image/ImageOrientation.swift).
extension ImageOrientation {
    /// Reads the orientation tag (0x0112) from a JPEG's EXIF APP1 segment;
    /// ``up`` when there is none or it cannot be read.
    init(exifIn jpeg: UnsafeRawBufferPointer) {
        self = Self.read(jpeg) ?? .up
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        // Walk the markers before the image data; EXIF sits in an early APP1.
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan / end of image
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let segment = (offset + 4)..<(offset + 2 + length)
            if marker == 0xE1, segment.count > 14,
                bytes[segment.lowerBound..<(segment.lowerBound + 6)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
            {
                return readTIFF(UnsafeRawBufferPointer(rebasing: bytes[(segment.lowerBound + 6)..<segment.upperBound]))
            }
            offset += 2 + length
        }
        return nil
    }

    private static func readTIFF(_ tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(littleEndian ? at + 2 : at), let low = u16(littleEndian ? at : at + 2) else {
                return nil
            }
            return high << 16 | low
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let value = u16(at + 8) {
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}

extension Image {
    /// The image turned upright according to `orientation`.
    public func applying(_ orientation: ImageOrientation) -> Image {
        guard orientation != .up else { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                let sourceWords = source.bindMemory(to: UInt32.self)
                let destinationWords = destination.bindMemory(to: UInt32.self)
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // (sx, sy): where the upright pixel (x, y) is stored.
                        let (sx, sy): (Int, Int) =
                            switch orientation {
                            case .up: (x, y)
                            case .upMirrored: (width - 1 - x, y)
                            case .down: (width - 1 - x, height - 1 - y)
                            case .downMirrored: (x, height - 1 - y)
                            case .leftMirrored: (y, x)
                            case .right: (y, height - 1 - x)
                            case .rightMirrored: (width - 1 - y, height - 1 - x)
                            case .left: (width - 1 - y, x)
                            }
                        destinationWords[y * outWidth + x] = sourceWords[sy * width + sx]
                    }
                }
            }
        }
        return Image(width: outWidth, height: outHeight, pixels: output, hasAlpha: hasAlpha)
    }
}
