internal import CAVIF

/// Owns one libavif object (`avifDecoder`, `avifEncoder` or `avifImage`) and
/// frees it with its own destroy function in `deinit`, so every path out of
/// an encode or decode (a throw included) releases it. libavif objects are
/// not thread-safe; each decode or encode makes its own.
final class LibAVIFHandle<Object> {
    let raw: UnsafeMutablePointer<Object>
    private let destroy: (UnsafeMutablePointer<Object>) -> Void

    /// Takes ownership of what `create` returns; `nil` (libavif's answer to
    /// a failed allocation) throws `.outOfMemory`.
    init(
        _ create: () -> UnsafeMutablePointer<Object>?, destroy: @escaping (UnsafeMutablePointer<Object>) -> Void,
        what: String
    ) throws(ImageCodecError) {
        guard let object = create() else {
            throw ImageCodecError(.outOfMemory, format: .avif, "cannot create the libavif \(what)")
        }
        raw = object
        self.destroy = destroy
    }

    deinit { destroy(raw) }
}

extension LibAVIFHandle where Object == avifDecoder {
    /// A new decoder.
    static func decoder() throws(ImageCodecError) -> LibAVIFHandle<avifDecoder> {
        try LibAVIFHandle({ avifDecoderCreate() }, destroy: { avifDecoderDestroy($0) }, what: "decoder")
    }

    /// libavif's detailed message for the decoder's last failure.
    var diagnostic: String { String(cString: webpbridge_avif_decoder_diagnostic(raw)) }
}

extension LibAVIFHandle where Object == avifEncoder {
    /// A new encoder.
    static func encoder() throws(ImageCodecError) -> LibAVIFHandle<avifEncoder> {
        try LibAVIFHandle({ avifEncoderCreate() }, destroy: { avifEncoderDestroy($0) }, what: "encoder")
    }

    /// libavif's detailed message for the encoder's last failure.
    var diagnostic: String { String(cString: webpbridge_avif_encoder_diagnostic(raw)) }
}

extension LibAVIFHandle where Object == avifImage {
    /// A new image of `width`×`height`, 8-bit, in `yuvFormat`, planes not yet allocated.
    static func image(width: Int, height: Int, yuvFormat: avifPixelFormat) throws(ImageCodecError)
        -> LibAVIFHandle<avifImage>
    {
        try LibAVIFHandle(
            { avifImageCreate(UInt32(width), UInt32(height), 8, yuvFormat) }, destroy: { avifImageDestroy($0) },
            what: "image")
    }
}
