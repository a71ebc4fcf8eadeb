/// The image type named by a path's extension, read without allocating.
enum ImageType: Sendable, Equatable {
    case jpeg, png, gif, webp, other

    /// The type from the last path segment: the text after its last `.`, cut
    /// at the first character that is not a letter or digit, so that Qiniu
    /// style paths such as `photo.JPG-thumb` or `photo.jpg!w750` count as JPEG.
    init(path: Substring) {
        let utf8 = path.utf8
        let segmentStart = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[segmentStart...].lastIndex(of: UInt8(ascii: ".")) else {
            self = .other
            return
        }
        var letters: UInt64 = 0
        var count = 0
        var index = utf8.index(after: dot)
        while index < utf8.endIndex {
            let byte = RawQuery.lowercase(utf8[index])
            let isAlphanumeric =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            if !isAlphanumeric { break }
            count += 1
            if count > 4 {
                self = .other
                return
            }
            letters = letters << 8 | UInt64(byte)
            index = utf8.index(after: index)
        }
        switch letters {
        case ImageType.jpg, ImageType.jpegLetters: self = .jpeg
        case ImageType.pngLetters: self = .png
        case ImageType.gifLetters: self = .gif
        case ImageType.webpLetters: self = .webp
        default: self = .other
        }
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
