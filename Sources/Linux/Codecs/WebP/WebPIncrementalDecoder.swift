internal import CWebP
public import Foundation

/// Decodes a still WebP while its bytes arrive, so a partial image can be
/// shown before the download ends.
///
/// Feed chunks with ``append(_:)``; read what has been decoded so far with
/// ``partialImage()``; ``finish()`` returns the whole image. The headers are
/// checked against the limits before libwebp allocates its output.
///
/// Not thread-safe: use one decoder from one task at a time.
public final class WebPIncrementalDecoder {
    /// Where decoding stands after an ``append(_:)``.
    public enum Progress: Equatable, Sendable {
        /// Not enough bytes for the headers yet.
        case waitingForHeaders
        /// `rows` of `height` rows are decoded.
        case decoding(rows: Int, height: Int)
        /// The image is complete.
        case complete
    }

    private let limits: DecodingLimits
    private var pending = Data()
    private var features: WebPFeatures?
    private var decoder: OpaquePointer?
    private var received = 0
    private var declaredSize: Int?
    private var isComplete = false

    /// Creates a decoder with `limits`.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    deinit {
        if let decoder { WebPIDelete(decoder) }
    }

    /// The headers, once enough bytes have arrived.
    public var headerFeatures: WebPFeatures? { features }

    /// Feeds the next chunk of the file.
    ///
    /// - Throws: ``ImageCodecError`` for a corrupt stream, an animation (not
    ///   decodable incrementally) or an image over the limits.
    @discardableResult
    public func append(_ chunk: Data) throws(ImageCodecError) -> Progress {
        guard !isComplete else { return .complete }
        received += chunk.count
        try limits.checkInput(byteCount: received, format: .webp)
        guard let decoder else {
            pending.append(chunk)
            return try startIfHeadersComplete()
        }
        return try feed(decoder, chunk)
    }

    private func startIfHeadersComplete() throws(ImageCodecError) -> Progress {
        guard pending.count >= 12 else {
            let riff = ImageFormat.riffMagic.prefix(pending.count)
            guard pending.prefix(4).elementsEqual(riff.prefix(min(4, pending.count))) else {
                throw ImageCodecError.corrupt(.webp, "missing RIFF/WEBP header")
            }
            return .waitingForHeaders
        }
        guard ImageFormat.sniffIfImage(pending) == .webp else {
            throw ImageCodecError.corrupt(.webp, "missing RIFF/WEBP header")
        }
        let headerResult: WebPFeatures? = try pending.withRawBytes { raw throws(ImageCodecError) in
            declaredSize = WebPStatus.declaredFileSize(raw)
            do throws(ImageCodecError) {
                return try WebPFeatures(raw)
            } catch  where error.kind == .truncated {
                return nil
            }
        }
        guard let headerResult else { return .waitingForHeaders }
        if headerResult.isAnimated {
            throw ImageCodecError(
                .unsupported, format: .webp, "an animated WebP cannot be decoded incrementally; decode it whole")
        }
        try limits.checkFrame(width: headerResult.width, height: headerResult.height, format: .webp)
        features = headerResult
        guard let created = WebPINewRGB(MODE_RGBA, nil, 0, 0) else {
            throw ImageCodecError(.outOfMemory, format: .webp, "cannot create the incremental decoder")
        }
        decoder = created
        let buffered = pending
        pending = Data()
        return try feed(created, buffered)
    }

    private func feed(_ decoder: OpaquePointer, _ chunk: Data) throws(ImageCodecError) -> Progress {
        let status = chunk.withUnsafeBytes { raw in
            WebPIAppend(decoder, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        switch status {
        case VP8_STATUS_OK:
            isComplete = true
            return .complete
        case VP8_STATUS_SUSPENDED:
            return .decoding(rows: decodedRows(decoder), height: features?.height ?? 0)
        default:
            try WebPStatus.check(
                status, operation: "decoding WebP incrementally", byteCount: received, declaredSize: declaredSize)
            return .decoding(rows: decodedRows(decoder), height: features?.height ?? 0)
        }
    }

    private func decodedRows(_ decoder: OpaquePointer) -> Int {
        var lastRow: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var stride: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastRow, &width, &height, &stride) != nil else { return 0 }
        return Int(lastRow)
    }

    /// The image as decoded so far: decoded rows, then transparent rows; `nil`
    /// before any row is decoded.
    public func partialImage() -> Image? {
        guard let decoder, let features else { return nil }
        var lastRow: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var stride: Int32 = 0
        guard let rgba = WebPIDecGetRGB(decoder, &lastRow, &width, &height, &stride), lastRow > 0 else {
            return nil
        }
        let rowBytes = Int(width) * 4
        var pixels = [UInt8](repeating: 0, count: rowBytes * Int(height))
        pixels.withUnsafeMutableBytes { output in
            guard let base = output.baseAddress else { return }
            for row in 0..<Int(lastRow) {
                let source = UnsafeRawPointer(rgba + row * Int(stride))
                (base + row * rowBytes).copyMemory(from: source, byteCount: rowBytes)
            }
        }
        let complete = Int(lastRow) == Int(height)
        return Image(width: Int(width), height: Int(height), pixels: pixels, hasAlpha: features.hasAlpha || !complete)
    }

    /// The complete image.
    ///
    /// - Throws: ``ImageCodecError/Kind/truncated`` when the stream has not ended.
    public func finish() throws(ImageCodecError) -> Image {
        guard isComplete, let image = partialImage() else {
            throw ImageCodecError.truncated(.webp, have: received, need: declaredSize)
        }
        return image
    }
}
