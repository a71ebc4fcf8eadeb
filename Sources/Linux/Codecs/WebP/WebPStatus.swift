internal import CWebP

/// The one place where libwebp's status codes become `ImageCodecError`s.
enum WebPStatus {
    /// `raw`'s first byte as libwebp takes it, valid while `raw` is. Empty
    /// input holds no WebP, and has no address to give.
    static func bytes(of raw: UnsafeRawBufferPointer) throws(ImageCodecError) -> UnsafePointer<UInt8> {
        guard let base = raw.baseAddress, !raw.isEmpty else { throw .truncated(.webp, have: 0, need: nil) }
        return base.assumingMemoryBound(to: UInt8.self)
    }

    /// Throws unless `status` is `VP8_STATUS_OK`.
    ///
    /// - Parameters:
    ///   - byteCount: how many bytes were given, for truncation messages.
    ///   - declaredSize: the size the RIFF header announces, when readable.
    static func check(
        _ status: VP8StatusCode, operation: String, byteCount: Int, declaredSize: Int?
    ) throws(ImageCodecError) {
        switch status {
        case VP8_STATUS_OK:
            return
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED:
            throw .truncated(.webp, have: byteCount, need: declaredSize)
        case VP8_STATUS_OUT_OF_MEMORY:
            throw ImageCodecError(.outOfMemory, format: .webp, "\(operation): libwebp ran out of memory")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw ImageCodecError(.unsupported, format: .webp, "\(operation): unsupported WebP feature")
        case VP8_STATUS_INVALID_PARAM:
            throw ImageCodecError(.invalidArgument, format: .webp, "\(operation): invalid parameter")
        case VP8_STATUS_BITSTREAM_ERROR:
            if let declaredSize, byteCount < declaredSize {
                throw .truncated(.webp, have: byteCount, need: declaredSize)
            }
            throw ImageCodecError.corrupt(.webp, "\(operation): bitstream error")
        default:
            throw ImageCodecError.corrupt(.webp, "\(operation): libwebp status \(status.rawValue)")
        }
    }

    /// The file size a RIFF header announces (`RIFF` size + 8), or `nil`.
    static func declaredFileSize(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 12, bytes.starts(with: ImageFormat.riffMagic) else { return nil }
        let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        return size + 8
    }

    /// The message for an encoder error code.
    static func encodingMessage(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_NULL_PARAMETER: "missing parameter"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: "picture dimensions are invalid (at most 16,383 pixels a side)"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "partition 0 overflow (try a lower quality)"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: "partition overflow"
        case VP8_ENC_ERROR_BAD_WRITE: "could not write output"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "output would exceed 4 GB"
        case VP8_ENC_ERROR_USER_ABORT: "aborted"
        default: "encoder error \(code.rawValue)"
        }
    }
}
