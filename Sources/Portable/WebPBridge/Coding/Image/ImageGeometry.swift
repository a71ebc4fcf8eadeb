/// The sizes a decode produces, decided once for every codec: the Linux
/// decoders and ``ImageIOCodec`` take their output sizes from here, so a
/// photo fitted to a box comes out the same size on every platform.
public enum ImageGeometry {
    /// The size that fits inside `maxWidth`×`maxHeight` keeping the aspect
    /// ratio, never larger than the source. A `nil` bound does not constrain.
    ///
    /// - Parameters:
    ///   - width, height: the source size (positive).
    ///   - maxWidth, maxHeight: the box to fit in; values below 1 count as 1.
    /// - Returns: at least 1×1, each side rounded to the nearest pixel.
    public static func fittingSize(
        width: Int, height: Int, maxWidth: Int?, maxHeight: Int?
    ) -> (width: Int, height: Int) {
        let boundWidth = max(maxWidth ?? width, 1)
        let boundHeight = max(maxHeight ?? height, 1)
        guard width > boundWidth || height > boundHeight else { return (width, height) }
        // Compare boundWidth/width with boundHeight/height without rounding.
        if boundWidth * height <= boundHeight * width {
            return (boundWidth, max(1, (height * boundWidth + width / 2) / width))
        }
        return (max(1, (width * boundHeight + height / 2) / height), boundHeight)
    }

    /// The size of a stored `storedWidth`×`storedHeight` image once turned
    /// upright per `orientation` and fitted inside `maxWidth`×`maxHeight`:
    /// the box applies to the upright image, as a view shows it. A
    /// 4032×3024 photo tagged 6 (``ImageOrientation/right``) fitted to
    /// 300×400 is 300×400.
    ///
    /// - Parameters:
    ///   - storedWidth, storedHeight: the size as coded (positive).
    ///   - orientation: the EXIF orientation; ``ImageOrientation/up`` for an
    ///     image left as stored.
    ///   - maxWidth, maxHeight: the box, `nil` for unbounded.
    /// - Returns: the upright size, at least 1×1.
    public static func uprightFittingSize(
        storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, maxWidth: Int?, maxHeight: Int?
    ) -> (width: Int, height: Int) {
        let swaps = orientation.swapsDimensions
        return fittingSize(
            width: swaps ? storedHeight : storedWidth, height: swaps ? storedWidth : storedHeight,
            maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// The value for ImageIO's `kCGImageSourceThumbnailMaxPixelSize` that
    /// yields ``uprightFittingSize(storedWidth:storedHeight:orientation:maxWidth:maxHeight:)``:
    /// ImageIO bounds the longer side of the (transformed) thumbnail, so this
    /// is the longer side of the upright fitted size; `nil` when no side
    /// shrinks (then the image is decoded at its own size).
    public static func thumbnailMaxPixelSize(
        storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, maxWidth: Int?, maxHeight: Int?
    ) -> Int? {
        let size = uprightFittingSize(
            storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation, maxWidth: maxWidth,
            maxHeight: maxHeight)
        let longer = max(size.width, size.height)
        return longer < max(storedWidth, storedHeight) ? longer : nil
    }
}
