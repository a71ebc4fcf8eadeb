public import Foundation

extension DecodingLimits {
    /// The checks every codec makes on the bytes before it decodes them, the
    /// same on every platform: the size against ``maxInputBytes`` and, for a
    /// JPEG, its scans against ``maxScans`` (counted by walking its segments,
    /// linear in its size, no decoding). The Linux JPEG decoder and
    /// ``ImageIOCodec`` both call this, so ImageIO never sees a JPEG the
    /// Linux decoder would refuse.
    ///
    /// - Throws: ``ImageCodecError`` `.limitExceeded`.
    public func checkInput(_ data: Data, format: ImageFormat) throws(ImageCodecError) {
        try checkInput(byteCount: data.count, format: format)
        guard format == .jpeg else { return }
        let scans = data.withUnsafeBytes { JPEGScanCounter.count($0, stoppingAbove: maxScans) }
        guard scans <= maxScans else {
            throw ImageCodecError(
                .limitExceeded, format: .jpeg,
                "JPEG of more than \(maxScans.formattedWithSeparators) scans exceeds the limit of"
                    + " \(maxScans.formattedWithSeparators) scans")
        }
    }
}
