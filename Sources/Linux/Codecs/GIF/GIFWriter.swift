internal import CGIF
import Foundation

/// Owns one giflib encoder writing into memory (`EGifCloseFile` exactly
/// once: by ``finish()`` or, after a failure, in `deinit`), and is the one
/// place where giflib's encoding return codes become ``ImageCodecError``s
/// carrying `GifErrorString`'s message.
///
/// Not thread-safe; every use is confined to one call of the GIF encoder.
final class GIFWriter {
    /// The bytes giflib writes, through ``appendToSink``; reached from C
    /// through the file's `UserData`.
    final class ByteSink {
        var bytes: [UInt8] = []
    }

    private var handle: UnsafeMutablePointer<GifFileType>?
    private let sink = ByteSink()

    /// Opens an encoder that writes GIF89a (needed for the extensions).
    init() throws(ImageCodecError) {
        var error: Int32 = 0
        // The writer keeps `sink` alive for as long as the handle, so an unretained pointer is enough.
        guard let handle = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), appendToSink, &error) else {
            throw Self.error(code: error, operation: "opening the encoder")
        }
        self.handle = handle
        EGifSetGifVersion(handle, true)
    }

    deinit {
        if let handle {
            var error: Int32 = 0
            _ = EGifCloseFile(handle, &error)
        }
    }

    /// Writes the header and logical screen descriptor, with an optional
    /// global colour table (RGB triples, padded to a power of two).
    func putScreen(width: Int, height: Int, colors: [UInt8]?) throws(ImageCodecError) {
        let handle = try open()
        try withColorMap(colors) { map throws(ImageCodecError) in
            try check(
                EGifPutScreenDesc(handle, Int32(width), Int32(height), 8, 0, map), "writing the screen descriptor")
        }
    }

    /// Writes a NETSCAPE2.0 application extension: `value` 0 loops forever,
    /// N repeats N times after the first play.
    func putLoopExtension(value: Int) throws(ImageCodecError) {
        let handle = try open()
        let identifier = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
        try check(EGifPutExtensionLeader(handle, APPLICATION_EXT_FUNC_CODE), "writing the loop extension")
        try check(EGifPutExtensionBlock(handle, Int32(identifier.count), identifier), "writing the loop extension")
        try check(EGifPutExtensionBlock(handle, Int32(loop.count), loop), "writing the loop extension")
        try check(EGifPutExtensionTrailer(handle), "writing the loop extension")
    }

    /// GIF's disposal methods, as this encoder uses them.
    enum Disposal: Int32 {
        /// Leave the frame in place under the next one.
        case keep = 1
        /// Clear the frame's rectangle to transparent before the next one.
        case background = 2
    }

    /// Writes a graphics control extension for the next image.
    func putGraphicsControl(delayCentiseconds: Int, disposal: Disposal, transparentIndex: Int?) throws(ImageCodecError)
    {
        let handle = try open()
        var block = GraphicsControlBlock(
            DisposalMode: disposal.rawValue, UserInputFlag: false, DelayTime: Int32(delayCentiseconds),
            TransparentColor: Int32(transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var bytes = [UInt8](repeating: 0, count: 4)
        let length = bytes.withUnsafeMutableBufferPointer { EGifGCBToExtension(&block, $0.baseAddress) }
        try check(
            EGifPutExtension(handle, GRAPHICS_EXT_FUNC_CODE, Int32(length), bytes),
            "writing a graphics control extension")
    }

    /// Writes an image: its descriptor (with a local colour table when
    /// `colors` is given) and its rows of palette indices.
    func putImage(
        x: Int, y: Int, width: Int, height: Int, colors: [UInt8]?, indices: [UInt8]
    ) throws(ImageCodecError) {
        let handle = try open()
        try withColorMap(colors) { map throws(ImageCodecError) in
            try check(
                EGifPutImageDesc(handle, Int32(x), Int32(y), Int32(width), Int32(height), false, map),
                "writing an image descriptor")
        }
        var rows = indices
        try rows.withUnsafeMutableBufferPointer { buffer throws(ImageCodecError) in
            guard let base = buffer.baseAddress else {
                throw ImageCodecError.invalidArgument(.gif, "a GIF frame needs at least one pixel")
            }
            for row in 0..<height {
                try check(EGifPutLine(handle, base + row * width, Int32(width)), "compressing image data")
            }
        }
    }

    /// Writes the trailer, closes the encoder and returns the file's bytes.
    func finish() throws(ImageCodecError) -> Data {
        let handle = try open()
        self.handle = nil
        var error: Int32 = 0
        guard EGifCloseFile(handle, &error) == GIF_OK else {
            throw Self.error(code: error, operation: "closing the file")
        }
        return Data(sink.bytes)
    }

    // MARK: Colour maps

    /// Calls `body` with a giflib colour map of `colors` (RGB triples), padded
    /// with black to the power of two (2 to 256 entries) that GIF requires;
    /// `nil` when `colors` is `nil`.
    private func withColorMap(
        _ colors: [UInt8]?, _ body: (UnsafePointer<ColorMapObject>?) throws(ImageCodecError) -> Void
    ) throws(ImageCodecError) {
        guard let colors else { return try body(nil) }
        let count = colors.count / 3
        guard count <= 256 else {
            throw ImageCodecError.invalidArgument(.gif, "a GIF colour table holds at most 256 colours, got \(count)")
        }
        var size = 2
        while size < count { size *= 2 }
        var entries = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for index in 0..<count {
            entries[index] = GifColorType(
                Red: colors[index * 3], Green: colors[index * 3 + 1], Blue: colors[index * 3 + 2])
        }
        guard let map = GifMakeMapObject(Int32(size), entries) else {
            throw ImageCodecError(.outOfMemory, format: .gif, "out of memory in giflib (GIF): making a colour map")
        }
        defer { GifFreeMapObject(map) }
        try body(map)
    }

    // MARK: The choke point

    private func open() throws(ImageCodecError) -> UnsafeMutablePointer<GifFileType> {
        guard let handle else {
            throw ImageCodecError(.encodingFailed, format: .gif, "GIF encoder used after it was closed")
        }
        return handle
    }

    /// Throws the ``ImageCodecError`` for giflib's current error unless `result` is `GIF_OK`.
    private func check(_ result: Int32, _ operation: String) throws(ImageCodecError) {
        guard result != GIF_OK else { return }
        throw Self.error(code: handle?.pointee.Error ?? E_GIF_ERR_WRITE_FAILED, operation: operation)
    }

    private static func error(code: Int32, operation: String) -> ImageCodecError {
        let libraryMessage = GifErrorString(code).map { String(cString: $0) } ?? "unknown giflib error"
        let kind: ImageCodecError.Kind = code == E_GIF_ERR_NOT_ENOUGH_MEM ? .outOfMemory : .encodingFailed
        return ImageCodecError(
            kind, format: .gif, "GIF encoding failed: \(operation): \(libraryMessage) (giflib error \(code))")
    }
}

/// giflib's `OutputFunc`: appends `count` bytes to the ``GIFWriter/ByteSink``
/// in `UserData` and reports them all written.
private func appendToSink(
    _ file: UnsafeMutablePointer<GifFileType>?, _ source: UnsafePointer<GifByteType>?, _ count: Int32
) -> Int32 {
    guard let file, let userData = file.pointee.UserData else { return 0 }
    guard let source, count > 0 else { return count == 0 ? 0 : -1 }
    let sink = Unmanaged<GIFWriter.ByteSink>.fromOpaque(userData).takeUnretainedValue()
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: source, count: Int(count)))
    return count
}
