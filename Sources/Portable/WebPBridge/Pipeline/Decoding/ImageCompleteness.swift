import Foundation

/// A cheap check that bytes are a whole image before they are cached or
/// served: a recognised format whose end marker is present. Catches HTML
/// error pages and truncated transfers without decoding pixels.
enum ImageCompleteness {
    /// The format, or a reason the bytes are not a whole image.
    static func check(_ data: Data) -> Result<ImageFormat, ImageCompletenessFailure> {
        guard let format = ImageFormat.sniffIfImage(data) else {
            let preview = String(decoding: data.prefix(24), as: UTF8.self)
                .filter { !$0.isNewline }
            return .failure(.init(message: data.isEmpty ? "empty body" : "unrecognised bytes \"\(preview)\""))
        }
        let complete: Bool
        switch format {
        case .webp:
            complete = data.count >= declaredRIFFSize(data)
        case .jpeg:
            // EOI, allowing a few bytes of trailing padding some encoders add.
            complete = data.suffix(64).range(of: Data([0xFF, 0xD9])) != nil
        case .png, .apng:
            complete = data.suffix(64).range(of: Data("IEND".utf8)) != nil
        case .gif:
            complete = data.last == 0x3B
        case .avif, .heic:
            complete = isoBMFFBoxesEndAtEnd(data)
        }
        return complete ? .success(format) : .failure(.init(message: "truncated \(format) (\(data.count) bytes)"))
    }
}

/// The file size a RIFF header announces (its size field + 8).
private func declaredRIFFSize(_ data: Data) -> Int {
    guard data.count >= 8 else { return Int.max }
    let start = data.startIndex
    let size =
        UInt32(data[start + 4]) | UInt32(data[start + 5]) << 8 | UInt32(data[start + 6]) << 16
        | UInt32(data[start + 7]) << 24
    return Int(size) + 8
}

struct ImageCompletenessFailure: Error {
    var message: String
}

/// Whether the top-level ISO-BMFF boxes of `data` (an AVIF) tile it exactly:
/// each box's size (32-bit, 64-bit when 1, to the end when 0) leads to the
/// next, and the last ends where the data does. A truncated transfer cuts
/// the last box (usually `mdat`) short.
private func isoBMFFBoxesEndAtEnd(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    func bigEndian(_ at: Int, _ count: Int) -> UInt64 {
        bytes[at..<(at + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
    var offset = 0
    while offset < bytes.count {
        guard offset + 8 <= bytes.count else { return false }
        var size = bigEndian(offset, 4)
        if size == 0 { return true }
        if size == 1 {
            guard offset + 16 <= bytes.count else { return false }
            size = bigEndian(offset + 8, 8)
        }
        guard size >= 8, size <= UInt64(bytes.count - offset) else { return false }
        offset += Int(size)
    }
    return true
}
