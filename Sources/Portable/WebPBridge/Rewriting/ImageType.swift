/// The image type named by a path's extension, read without allocating.
enum ImageType: Sendable, Equatable {
    case jpeg, png, gif, webp, other

    /// The type from the last path segment: the text after its last `.`, cut
    /// at the first character that is not a letter or digit, so that Qiniu
    /// style paths such as `photo.JPG-thumb` or `photo.jpg!w750` count as JPEG.
    init(path: Substring) {
        let letters: UInt64?
        if let found = path.utf8.withContiguousStorageIfAvailable(ImageType.extensionLetters) {
            letters = found
        } else {
            letters = Array(path.utf8).withUnsafeBufferPointer(ImageType.extensionLetters)
        }
        guard let letters else {
            self = .other
            return
        }
        switch letters {
        case ImageType.jpg, ImageType.jpegLetters: self = .jpeg
        case ImageType.pngLetters: self = .png
        case ImageType.gifLetters: self = .gif
        case ImageType.webpLetters: self = .webp
        default: self = .other
        }
    }

    /// The last segment's extension (up to 4 letters or digits, lower-cased)
    /// packed into an integer, or `nil` when there is none or it is longer.
    private static func extensionLetters(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var dot = bytes.count - 1
        while dot >= 0, bytes[dot] != UInt8(ascii: "."), bytes[dot] != UInt8(ascii: "/") { dot -= 1 }
        guard dot >= 0, bytes[dot] == UInt8(ascii: ".") else { return nil }
        var letters: UInt64 = 0
        var index = dot + 1
        while index < bytes.count {
            let byte = RawQuery.lowercase(bytes[index])
            let isAlphanumeric =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            if !isAlphanumeric { break }
            if index - dot > 4 { return nil }
            letters = letters << 8 | UInt64(byte)
            index += 1
        }
        return letters
    }

    private static let jpg = pack("jpg")
    private static let jpegLetters = pack("jpeg")
    private static let pngLetters = pack("png")
    private static let gifLetters = pack("gif")
    private static let webpLetters = pack("webp")

    private static func pack(_ text: StaticString) -> UInt64 {
        var value: UInt64 = 0
        text.withUTF8Buffer { buffer in
            for byte in buffer { value = value << 8 | UInt64(byte) }
        }
        return value
    }
}
