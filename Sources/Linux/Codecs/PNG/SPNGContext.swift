internal import CSPNG

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Owns one libspng context (freed in `deinit`) and is the one place where
/// libspng's return codes become ``ImageCodecError``s carrying
/// `spng_strerror`'s message.
///
/// Not thread-safe; every use is confined to one call of a codec.
final class SPNGContext {
    /// The IHDR fields the codecs use.
    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool

        /// Colour types 4 (grey + alpha) and 6 (RGBA) carry an alpha channel.
        var colorTypeHasAlpha: Bool { colorType == 4 || colorType == 6 }
    }

    /// Largest ancillary chunk, and largest decompressed text chunk, libspng
    /// accepts: 1 MiB, as Pillow's `MAX_TEXT_CHUNK`. The decoders ignore
    /// metadata, and a zTXt that inflates past this is a decompression bomb
    /// (`png_decompression_dos.png` holds three 2 MiB ones). IDAT is not
    /// subject to it.
    static let maxAncillaryChunkBytes = 1 << 20
    /// Most memory libspng may keep for ancillary chunks in all: 16 MiB.
    static let maxChunkCacheBytes = 16 << 20

    private let handle: OpaquePointer
    private let format: ImageFormat
    private let isEncoder: Bool

    private init(flags: Int32, format: ImageFormat, isEncoder: Bool) throws(ImageCodecError) {
        guard let handle = spng_ctx_new(flags) else {
            throw ImageCodecError(.outOfMemory, format: format, "libspng could not allocate a context")
        }
        self.handle = handle
        self.format = format
        self.isEncoder = isEncoder
    }

    deinit { spng_ctx_free(handle) }

    /// A decoder reading `bytes`, which must stay valid while the context lives.
    static func decoder(reading bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImageCodecError)
        -> SPNGContext
    {
        let context = try SPNGContext(flags: 0, format: format, isEncoder: false)
        try context.check(
            spng_set_chunk_limits(context.handle, maxAncillaryChunkBytes, maxChunkCacheBytes), "setting chunk limits")
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw ImageCodecError.truncated(format, have: 0, need: nil)
        }
        try context.check(spng_set_png_buffer(context.handle, base, bytes.count), "reading the signature")
        return context
    }

    /// An encoder that writes to an internal buffer, whose bytes
    /// ``encode(_:width:height:hasAlpha:compressionLevel:)`` returns.
    static func encoder(format: ImageFormat) throws(ImageCodecError) -> SPNGContext {
        let context = try SPNGContext(flags: Int32(SPNG_CTX_ENCODER.rawValue), format: format, isEncoder: true)
        try context.check(spng_set_option(context.handle, SPNG_ENCODE_TO_BUFFER, 1), "selecting in-memory output")
        return context
    }

    // MARK: Decoding

    /// The image header; reads no further than IHDR.
    func header() throws(ImageCodecError) -> Header {
        var ihdr = spng_ihdr()
        try check(spng_get_ihdr(handle, &ihdr), "reading IHDR")
        return Header(
            width: Int(ihdr.width), height: Int(ihdr.height), bitDepth: Int(ihdr.bit_depth),
            colorType: Int(ihdr.color_type), interlaced: ihdr.interlace_method != 0)
    }

    /// Whether the stream has a tRNS chunk. Reads the chunks before IDAT, so
    /// this is where chunk limits (text bombs) trip.
    func hasTransparencyChunk() throws(ImageCodecError) -> Bool {
        var trns = spng_trns()
        let status = spng_get_trns(handle, &trns)
        if status == SPNG_ECHUNKAVAIL.rawValue { return false }
        try check(status, "reading the chunks before the image data")
        return true
    }

    /// Decodes the whole image as 8-bit RGBA with tRNS applied.
    func decodeRGBA8() throws(ImageCodecError) -> [UInt8] {
        let format = Int32(SPNG_FMT_RGBA8.rawValue)
        var size = 0
        try check(spng_decoded_image_size(handle, format, &size), "computing the decoded size")
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            status = spng_decode_image(handle, buffer.baseAddress, size, format, Int32(SPNG_DECODE_TRNS.rawValue))
            initialized = status == 0 ? size : 0
        }
        try check(status, "decoding the image")
        return pixels
    }

    // MARK: Encoding

    /// Encodes `samples` (in the PNG's own sample layout, `width * channels`
    /// bytes a row, no padding) as an 8-bit RGB or RGBA PNG.
    func encode(
        _ samples: UnsafeBufferPointer<UInt8>, width: Int, height: Int, hasAlpha: Bool, compressionLevel: Int
    ) throws(ImageCodecError) -> [UInt8] {
        var ihdr = spng_ihdr()
        ihdr.width = UInt32(width)
        ihdr.height = UInt32(height)
        ihdr.bit_depth = 8
        ihdr.color_type = UInt8(
            hasAlpha ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue : SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
        try check(spng_set_ihdr(handle, &ihdr), "writing IHDR")
        try check(
            spng_set_option(handle, SPNG_IMG_COMPRESSION_LEVEL, Int32(compressionLevel)),
            "setting the compression level")
        try check(
            spng_encode_image(
                handle, samples.baseAddress, samples.count, Int32(SPNG_FMT_PNG.rawValue),
                Int32(SPNG_ENCODE_FINALIZE.rawValue)),
            "encoding the image")
        var length = 0
        var status: Int32 = 0
        guard let buffer = spng_get_png_buffer(handle, &length, &status) else {
            try check(status == 0 ? SPNG_EINTERNAL.rawValue : status, "taking the encoded buffer")
            return []
        }
        // spng_get_png_buffer hands ownership of its malloc'd buffer to the caller.
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length).bindMemory(to: UInt8.self))
    }

    // MARK: The choke point

    /// Throws the ``ImageCodecError`` for libspng status `code`, unless it is success.
    func check(_ code: Int32, _ operation: String) throws(ImageCodecError) {
        guard code != 0 else { return }
        let libraryMessage = String(cString: spng_strerror(code))
        let kind: ImageCodecError.Kind
        switch code {
        case SPNG_EMEM.rawValue:
            kind = .outOfMemory
        case SPNG_ECHUNK_LIMITS.rawValue, SPNG_EUSER_WIDTH.rawValue, SPNG_EUSER_HEIGHT.rawValue:
            kind = .limitExceeded
        case SPNG_IO_EOF.rawValue, SPNG_EOF.rawValue, SPNG_EIDAT_TOO_SHORT.rawValue:
            kind = isEncoder ? .encodingFailed : .truncated
        default:
            kind = isEncoder ? .encodingFailed : .corrupt
        }
        let prefix: String
        switch kind {
        case .limitExceeded: prefix = "\(format) exceeds libspng's limits"
        case .encodingFailed: prefix = "\(format) encoding failed"
        case .outOfMemory: prefix = "out of memory in libspng (\(format))"
        default: prefix = "\(kind) \(format)"
        }
        let advice =
            code == SPNG_ECHUNK_LIMITS.rawValue
            ? "; metadata chunks may hold \(Self.maxAncillaryChunkBytes >> 20) MiB each (decompressed),"
                + " \(Self.maxChunkCacheBytes >> 20) MiB in all"
            : ""
        throw ImageCodecError(
            kind, format: format, "\(prefix): \(operation): \(libraryMessage) (libspng error \(code))\(advice)")
    }
}
