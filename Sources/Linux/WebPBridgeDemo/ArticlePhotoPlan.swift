import WebPBridge

/// How one article's photo is cut from a source photo, as an editor would:
/// a crop (position, zoom and aspect ratio), an optional mirror, and the
/// width the CMS publishes it at. Pure arithmetic, so every article of the
/// demo differs from the others and the same inputs always give the same site.
struct ArticlePhotoPlan: Sendable, Equatable {
    /// Which source photo (index into the sorted list).
    var sourceIndex: Int
    /// The crop in source pixels.
    var crop: (x: Int, y: Int, width: Int, height: Int)
    /// Mirror left to right.
    var mirrored: Bool
    /// The published size.
    var width: Int
    var height: Int

    static func == (lhs: ArticlePhotoPlan, rhs: ArticlePhotoPlan) -> Bool {
        lhs.sourceIndex == rhs.sourceIndex && lhs.crop == rhs.crop && lhs.mirrored == rhs.mirrored
            && lhs.width == rhs.width && lhs.height == rhs.height
    }

    /// Aspect ratios (width / height) a news CMS uses.
    static let aspectRatios: [Double] = [3.0 / 2.0, 16.0 / 9.0, 4.0 / 3.0, 5.0 / 4.0]

    /// The plan of article `number` (0-based) among `sourceCount` source
    /// photos, where source `sourceIndex` is `sourceWidth`×`sourceHeight`.
    ///
    /// Articles go round the sources; each round (`variant`) zooms further
    /// in, at another anchor, mirroring every other round, so with 12
    /// sources the 48 articles are 4 distinct cuts of each. The published
    /// width lies in `widths`, never more than the crop unless the crop is
    /// narrower than `widths.lowerBound` (a CMS upscales only small sources).
    static func plan(
        article number: Int, sourceCount: Int, sourceWidth: Int, sourceHeight: Int, widths: ClosedRange<Int>
    ) -> ArticlePhotoPlan {
        let sourceIndex = number % sourceCount
        let variant = number / sourceCount
        let zoom = [1.0, 0.8, 0.66, 0.72, 0.9, 0.6][variant % 6]
        let aspect = aspectRatios[(number + variant) % aspectRatios.count]
        // The largest crop of this aspect ratio, then zoomed in.
        var cropWidth = Double(sourceWidth)
        var cropHeight = cropWidth / aspect
        if cropHeight > Double(sourceHeight) {
            cropHeight = Double(sourceHeight)
            cropWidth = cropHeight * aspect
        }
        cropWidth *= zoom
        cropHeight *= zoom
        // Anchors: centre, upper left third, lower right third, upper right…
        let anchors: [(Double, Double)] = [(0.5, 0.5), (0.3, 0.35), (0.7, 0.65), (0.75, 0.3), (0.25, 0.7), (0.5, 0.4)]
        let anchor = anchors[variant % anchors.count]
        let width = max(1, Int(cropWidth.rounded()))
        let height = max(1, Int(cropHeight.rounded()))
        let x = Int((Double(sourceWidth - width) * anchor.0).rounded())
        let y = Int((Double(sourceHeight - height) * anchor.1).rounded())
        // Spread published widths over the range, deterministically.
        let span = widths.upperBound - widths.lowerBound
        let wanted = widths.lowerBound + (span == 0 ? 0 : (number * 397 + 131) % (span + 1))
        let published = max(widths.lowerBound, min(wanted, width))
        let publishedHeight = max(1, Int((Double(published) * Double(height) / Double(width)).rounded()))
        return ArticlePhotoPlan(
            sourceIndex: sourceIndex, crop: (x, y, width, height), mirrored: variant % 2 == 1,
            width: published, height: publishedHeight)
    }

    /// Cuts, mirrors and scales `source` as planned.
    func render(from source: Image) throws -> Image {
        var pixels = [UInt8](repeating: 0, count: crop.width * crop.height * 4)
        let rowBytes = crop.width * 4
        source.pixels.withUnsafeBufferPointer { from in
            pixels.withUnsafeMutableBufferPointer { to in
                // Empty only for an empty crop: nothing to copy.
                guard let fromBase = from.baseAddress, let toBase = to.baseAddress else { return }
                for row in 0..<crop.height {
                    let start = ((crop.y + row) * source.width + crop.x) * 4
                    let destination = row * rowBytes
                    if mirrored {
                        for column in 0..<crop.width {
                            let source = start + (crop.width - 1 - column) * 4
                            let target = destination + column * 4
                            to[target] = from[source]
                            to[target + 1] = from[source + 1]
                            to[target + 2] = from[source + 2]
                            to[target + 3] = from[source + 3]
                        }
                    } else {
                        UnsafeMutableRawPointer(toBase + destination)
                            .copyMemory(from: fromBase + start, byteCount: rowBytes)
                    }
                }
            }
        }
        let cut = Image(width: crop.width, height: crop.height, pixels: pixels, hasAlpha: false)
        return try ImageResizer().resize(cut, width: width, height: height)
    }
}
