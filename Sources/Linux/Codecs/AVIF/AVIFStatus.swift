internal import CAVIF

/// The one place where libavif's result codes become `ImageCodecError`s,
/// carrying libavif's own message and, when it wrote one, its diagnostic.
enum AVIFStatus {
    /// Throws unless `result` is `AVIF_RESULT_OK`.
    ///
    /// - Parameters:
    ///   - operation: what was being done, for the message ("decoding AVIF").
    ///   - diagnostic: the handle's `diag.error` text, read after the call.
    ///   - byteCount: how many bytes were given, for truncation messages.
    static func check(
        _ result: avifResult, operation: String, diagnostic: @autoclosure () -> String, byteCount: Int? = nil
    ) throws(ImageCodecError) {
        guard result != AVIF_RESULT_OK else { return }
        let name = avifResultToString(result).map { String(cString: $0) } ?? "libavif result \(result.rawValue)"
        let detail = diagnostic()
        let message = "\(operation): \(name)" + (detail.isEmpty ? "" : " (\(detail))")
        switch result {
        case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_WAITING_ON_IO:
            throw ImageCodecError(
                .truncated, format: .avif,
                "truncated AVIF: data ends after \((byteCount ?? 0).formattedWithSeparators) bytes (\(message))")
        case AVIF_RESULT_OUT_OF_MEMORY:
            throw ImageCodecError(.outOfMemory, format: .avif, message)
        case AVIF_RESULT_NO_CODEC_AVAILABLE, AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_UNSUPPORTED_DEPTH:
            throw ImageCodecError(.unsupported, format: .avif, message)
        case AVIF_RESULT_INVALID_ARGUMENT, AVIF_RESULT_INVALID_CODEC_SPECIFIC_OPTION:
            throw ImageCodecError.invalidArgument(.avif, message)
        case AVIF_RESULT_ENCODE_COLOR_FAILED, AVIF_RESULT_ENCODE_ALPHA_FAILED:
            throw ImageCodecError(.encodingFailed, format: .avif, message)
        default:
            // libavif's own bounds (imageSizeLimit, imageDimensionLimit,
            // imageCountLimit) surface as parse failures: "Item ID [1]
            // dimensions are too large [64x64]", "… exceeds … limit".
            let lowered = detail.lowercased()
            if lowered.contains("limit") || lowered.contains("too large") {
                throw ImageCodecError(.limitExceeded, format: .avif, message)
            }
            throw ImageCodecError.corrupt(.avif, message)
        }
    }
}
