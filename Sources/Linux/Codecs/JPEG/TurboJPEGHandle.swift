internal import CTurboJPEG

/// Owns one TurboJPEG handle and is the one place where TurboJPEG's return
/// codes become `ImageCodecError`s. A handle is not thread-safe; each
/// encode or decode makes its own (creating one costs microseconds).
final class TurboJPEGHandle {
    let raw: tjhandle

    enum Kind { case compress, decompress }

    init(_ kind: Kind) throws(ImageCodecError) {
        let handle = kind == .compress ? tjInitCompress() : tjInitDecompress()
        guard let handle else {
            throw ImageCodecError(.outOfMemory, format: .jpeg, "cannot create a TurboJPEG handle")
        }
        raw = handle
    }

    deinit { tjDestroy(raw) }

    /// The library's message for the last failure.
    var lastMessage: String {
        tjGetErrorStr2(raw).map { String(cString: $0) } ?? "unknown TurboJPEG error"
    }

    /// Whether the last failure was only a warning (the output is usable).
    var lastFailureWasWarning: Bool { tjGetErrorCode(raw) == TJERR_WARNING.rawValue }

    /// Throws unless `result` is 0. Warnings are tolerated (as browsers show
    /// slightly damaged JPEGs) except a premature end of data, which is a
    /// truncated file.
    func check(_ result: Int32, operation: String, byteCount: Int) throws(ImageCodecError) {
        guard result != 0 else { return }
        let message = lastMessage
        if message.localizedCaseInsensitiveContains("premature end") {
            throw ImageCodecError(
                .truncated, format: .jpeg,
                "truncated JPEG: data ends after \(byteCount.formattedWithSeparators) bytes (\(message))")
        }
        if lastFailureWasWarning { return }
        throw ImageCodecError.corrupt(.jpeg, "\(operation): \(message)")
    }
}

extension String {
    fileprivate func localizedCaseInsensitiveContains(_ other: String) -> Bool {
        lowercased().contains(other.lowercased())
    }
}
