extension Image {
    /// The pixels in `columns`×`rows`, clamped to the image.
    ///
    /// - Returns: the image itself when the region covers it; an empty
    ///   image when the region misses it.
    public func cropped(columns: Range<Int>, rows: Range<Int>) -> Image {
        let columns = columns.clamped(to: 0..<width)
        let rows = rows.clamped(to: 0..<height)
        if columns.count == width && rows.count == height { return self }
        var output = [UInt8](repeating: 0, count: columns.count * rows.count * 4)
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                // Empty only for an empty crop: nothing to copy.
                guard let destination = destination.baseAddress, let source = source.baseAddress else { return }
                for (index, row) in rows.enumerated() {
                    let from = (row * width + columns.lowerBound) * 4
                    (destination + index * columns.count * 4).copyMemory(
                        from: source + from, byteCount: columns.count * 4)
                }
            }
        }
        return Image(width: columns.count, height: rows.count, pixels: output, hasAlpha: hasAlpha)
    }
}
