/// Resizing (interim area-average implementation; replaced on merge by the
/// separable resizer from the png-gif branch).
public enum ImageResizer {
    /// The size that fits inside `maxWidth`×`maxHeight` keeping the aspect
    /// ratio, never larger than the source. Either bound may be `nil`.
    public static func fittingSize(width: Int, height: Int, maxWidth: Int?, maxHeight: Int?) -> (width: Int, height: Int) {
        var scale = 1.0
        if let maxWidth, maxWidth < width { scale = min(scale, Double(maxWidth) / Double(width)) }
        if let maxHeight, maxHeight < height { scale = min(scale, Double(maxHeight) / Double(height)) }
        guard scale < 1 else { return (width, height) }
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// Area-average downscale of `image` to `width`×`height`.
    public static func resize(_ image: Image, width: Int, height: Int) -> Image {
        if width == image.width && height == image.height { return image }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let y0 = y * image.height / height
            let y1 = max(y0 + 1, (y + 1) * image.height / height)
            for x in 0..<width {
                let x0 = x * image.width / width
                let x1 = max(x0 + 1, (x + 1) * image.width / width)
                var sums = (0, 0, 0, 0)
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let i = (sy * image.width + sx) * 4
                        let a = Int(image.pixels[i + 3])
                        sums.0 += Int(image.pixels[i]) * a
                        sums.1 += Int(image.pixels[i + 1]) * a
                        sums.2 += Int(image.pixels[i + 2]) * a
                        sums.3 += a
                    }
                }
                let o = (y * width + x) * 4
                let count = (y1 - y0) * (x1 - x0)
                if sums.3 > 0 {
                    out[o] = UInt8(sums.0 / sums.3)
                    out[o + 1] = UInt8(sums.1 / sums.3)
                    out[o + 2] = UInt8(sums.2 / sums.3)
                }
                out[o + 3] = UInt8(sums.3 / count)
            }
        }
        return Image(width: width, height: height, pixels: out, hasAlpha: image.hasAlpha)
    }
}
