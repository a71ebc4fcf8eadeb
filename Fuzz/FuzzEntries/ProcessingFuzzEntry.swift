public import Foundation
import ImageOrigin

/// `fuzz-processing`: the origin's Qiniu processing grammar, the geometry
/// computed from what it parsed, and style-suffix matching on the same text.
public enum ProcessingFuzzEntry {
    /// Source sizes the geometry is computed for: the smallest, extreme
    /// aspect ratios and the largest a decoder lets through.
    private static let sourceSizes = [(1, 1), (1, 16_383), (16_383, 1), (750, 500), (16_383, 16_383)]
    private static let styles = StyleSheet(
        separators: ["-", "_", "!", "/"],
        styles: [
            "w750": ProcessingPipeline(steps: [.imageView2(ImageView2(mode: 2, width: 750))], ignoresErrors: false)
        ])

    /// Parses `data` as a processing query (`imageView2/…|imageMogr2/…`);
    /// a result or a ``ProcessingError`` is expected, and every geometry
    /// derived from a result must be positive and within the asked bounds.
    public static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        _ = styles.match(text)
        guard let pipeline = try? ProcessingParser.parse(text) else { return }
        for step in pipeline.steps {
            for (width, height) in sourceSizes {
                check(step, width: width, height: height)
            }
        }
        _ = (pipeline.outputFormat, pipeline.quality, pipeline.interlace)
    }

    private static func check(_ step: ImageOperation, width: Int, height: Int) {
        let geometry: ThumbnailGeometry
        let enlarges: Bool
        switch step {
        case .imageView2(let view):
            geometry = ThumbnailGeometry.imageView2(view, width: width, height: height)
            enlarges = false
        case .imageMogr2(let mogr):
            guard let thumbnail = mogr.thumbnail else { return }
            geometry = ThumbnailGeometry.thumbnail(thumbnail, width: width, height: height)
            enlarges = true
        }
        // Every side at least 1 px, a crop inside the scaled image; imageView2 never enlarges.
        let maxWidth = enlarges ? Int.max : width
        let maxHeight = enlarges ? Int.max : height
        FuzzExpectation.require(
            (1...maxWidth).contains(geometry.scaledWidth) && (1...maxHeight).contains(geometry.scaledHeight)
                && (1...geometry.scaledWidth).contains(geometry.outputWidth)
                && (1...geometry.scaledHeight).contains(geometry.outputHeight),
            "geometry \(geometry) for \(step) on \(width)x\(height) is empty or enlarges")
        _ = geometry.enlargementRefusal(fromWidth: width, height: height)
        _ = geometry.decodingBox(width: width, height: height)
    }
}
