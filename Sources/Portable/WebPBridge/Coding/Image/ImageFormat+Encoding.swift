extension ImageFormat {
    /// The longest side the format can store: 16,383 pixels for WebP (its
    /// 14-bit size fields), 65,535 for JPEG and GIF (16-bit fields),
    /// 2,147,483,647 for PNG and APNG, 65,536 for AVIF (AV1's 16-bit
    /// `frame_width_minus_1`), 4,294,967,295 for HEIC (the `ispe` property's
    /// 32-bit fields: an image may be a grid of HEVC tiles; nothing here
    /// writes HEIC).
    public var maxEncodableDimension: Int {
        switch self {
        case .webp: 16_383
        case .jpeg, .gif: 65_535
        case .png, .apng: Int(Int32.max)
        case .avif: 65_536
        case .heic: Int(UInt32.max)
        }
    }

    /// Throws unless a `width`×`height` image fits the format. Converters
    /// call it with the size read from the source's headers (after any
    /// scaling), so what the output cannot hold is refused before anything
    /// is decoded.
    ///
    /// - Throws: ``ImageCodecError`` `.invalidArgument` naming the size and the bound.
    public func checkEncodable(width: Int, height: Int) throws(ImageCodecError) {
        let bound = maxEncodableDimension
        guard width <= bound, height <= bound else {
            throw ImageCodecError(
                .invalidArgument, format: self,
                "\(width)x\(height) is larger than \(self) allows (\(bound.formattedWithSeparators) pixels a side)")
        }
    }
}
