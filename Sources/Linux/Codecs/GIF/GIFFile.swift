internal import CGIF

/// Owns one giflib decoder (`DGifCloseFile` in `deinit`, whatever happened)
/// reading from memory, and is the one place where giflib's return codes
/// become ``ImageCodecError``s carrying `GifErrorString`'s message.
///
/// Not thread-safe; every use is confined to one call of the GIF decoder.
final class GIFFile {
    /// The bytes giflib reads, through ``readFromSource``; reached from C
    /// through the file's `UserData`.
    final class ByteSource {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    let handle: UnsafeMutablePointer<GifFileType>
    private let source: ByteSource

    /// Opens `bytes` (which must outlive the file) and reads the screen descriptor.
    init(reading bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
        let source = ByteSource(bytes)
        var error: Int32 = 0
        // The file keeps `source` alive, so an unretained pointer is enough.
        guard let handle = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), readFromSource, &error) else {
            throw Self.error(
                code: error, operation: "reading the GIF header", bytesRead: source.offset, totalBytes: bytes.count)
        }
        self.handle = handle
        self.source = source
    }

    deinit {
        var error: Int32 = 0
        _ = DGifCloseFile(handle, &error)
    }

    /// Logical screen width and height.
    var screenSize: (width: Int, height: Int) { (Int(handle.pointee.SWidth), Int(handle.pointee.SHeight)) }

    // MARK: Records

    enum Record { case image, `extension`, terminator }

    /// The type of the next record. At the end of the data (a missing
    /// trailer) this is `.terminator`.
    func nextRecord() throws(ImageCodecError) -> Record {
        if source.offset >= source.bytes.count { return .terminator }
        var type = UNDEFINED_RECORD_TYPE
        try check(DGifGetRecordType(handle, &type), "reading a record type")
        switch type {
        case IMAGE_DESC_RECORD_TYPE: return .image
        case EXTENSION_RECORD_TYPE: return .extension
        default: return .terminator
        }
    }

    /// The image descriptor that follows an image record.
    struct ImageDescriptor {
        var rect: PixelRect
        var interlaced: Bool
        /// RGB triples of the local colour table, else the global one; `nil` when neither exists.
        var colors: [UInt8]?
    }

    /// The rectangle of the image descriptor that follows an image record,
    /// read from the bytes before giflib parses the descriptor (which
    /// allocates its colour map and may fail on the bytes after it), so limits
    /// can be checked first. `nil` when the descriptor is cut short.
    func peekImageRect() -> PixelRect? {
        // giflib reads the record type byte by byte, so the ',' was the last byte read.
        let start = source.offset
        guard start >= 1, start + 9 <= source.bytes.count, source.bytes[start - 1] == 0x2C else { return nil }
        func field(_ index: Int) -> Int { Int(source.bytes[start + index]) | Int(source.bytes[start + index + 1]) << 8 }
        return PixelRect(x: field(0), y: field(2), width: field(4), height: field(6))
    }

    /// Reads the image descriptor (not its pixels).
    func imageDescriptor() throws(ImageCodecError) -> ImageDescriptor {
        try check(DGifGetImageDesc(handle), "reading an image descriptor")
        let image = handle.pointee.Image
        let map = image.ColorMap ?? handle.pointee.SColorMap
        var colors: [UInt8]?
        if let map, let entries = map.pointee.Colors, map.pointee.ColorCount > 0 {
            let count = Int(map.pointee.ColorCount)
            colors = [UInt8](unsafeUninitializedCapacity: count * 3) { buffer, initialized in
                for index in 0..<count {
                    buffer[index * 3] = entries[index].Red
                    buffer[index * 3 + 1] = entries[index].Green
                    buffer[index * 3 + 2] = entries[index].Blue
                }
                initialized = count * 3
            }
        }
        return ImageDescriptor(
            rect: PixelRect(x: Int(image.Left), y: Int(image.Top), width: Int(image.Width), height: Int(image.Height)),
            interlaced: image.Interlace, colors: colors)
    }

    /// Decodes the next row of palette indices of the current image into `row`.
    func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodecError) {
        try check(DGifGetLine(handle, row.baseAddress, Int32(row.count)), "decoding image data")
    }

    /// Skips the compressed data of the current image without decoding it.
    func skipImageData() throws(ImageCodecError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetCode(handle, &codeSize, &block), "skipping image data")
        while block != nil {
            try check(DGifGetCodeNext(handle, &block), "skipping image data")
        }
    }

    /// An extension's function code and the payload of each of its sub-blocks.
    func readExtension() throws(ImageCodecError) -> (code: Int, blocks: [[UInt8]]) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetExtension(handle, &code, &block), "reading an extension")
        var blocks: [[UInt8]] = []
        while let current = block {
            // giflib hands each sub-block as a length byte followed by the data.
            let length = Int(current[0])
            blocks.append(Array(UnsafeBufferPointer(start: current + 1, count: length)))
            try check(DGifGetExtensionNext(handle, &block), "reading an extension")
        }
        return (Int(code), blocks)
    }

    static let graphicsControlCode = Int(GRAPHICS_EXT_FUNC_CODE)
    static let applicationCode = Int(APPLICATION_EXT_FUNC_CODE)

    // MARK: The choke point

    /// Throws the ``ImageCodecError`` for giflib's current error unless `result` is `GIF_OK`.
    func check(_ result: Int32, _ operation: String) throws(ImageCodecError) {
        guard result != GIF_OK else { return }
        throw Self.error(
            code: handle.pointee.Error, operation: operation, bytesRead: source.offset, totalBytes: source.bytes.count)
    }

    private static func error(code: Int32, operation: String, bytesRead: Int, totalBytes: Int) -> ImageCodecError {
        let libraryMessage = GifErrorString(code).map { String(cString: $0) } ?? "unknown giflib error"
        let kind: ImageCodecError.Kind
        switch code {
        case _ where bytesRead >= totalBytes && code != D_GIF_ERR_NOT_GIF_FILE: kind = .truncated
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON: kind = .truncated
        case D_GIF_ERR_NOT_ENOUGH_MEM: kind = .outOfMemory
        case D_GIF_ERR_NOT_GIF_FILE: kind = .unknownFormat
        default: kind = .corrupt
        }
        let prefix =
            kind == .truncated
            ? "truncated GIF (data ends after \(bytesRead.formattedWithSeparators) bytes)"
            : kind == .outOfMemory ? "out of memory in giflib (GIF)" : "\(kind) GIF"
        return ImageCodecError(kind, format: .gif, "\(prefix): \(operation): \(libraryMessage) (giflib error \(code))")
    }
}

/// giflib's `InputFunc`: copies up to `count` bytes from the ``GIFFile/ByteSource``
/// in `UserData`, returning how many it copied (fewer at the end of the data).
private func readFromSource(
    _ file: UnsafeMutablePointer<GifFileType>?, _ destination: UnsafeMutablePointer<GifByteType>?, _ count: Int32
) -> Int32 {
    guard let file, let destination, count > 0, let userData = file.pointee.UserData else { return 0 }
    let source = Unmanaged<GIFFile.ByteSource>.fromOpaque(userData).takeUnretainedValue()
    let available = min(Int(count), source.bytes.count - source.offset)
    guard available > 0, let base = source.bytes.baseAddress else { return 0 }
    UnsafeMutableRawPointer(destination).copyMemory(from: base + source.offset, byteCount: available)
    source.offset += available
    return Int32(available)
}
