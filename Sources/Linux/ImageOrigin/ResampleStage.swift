import WebPBridge

/// One resample of a composed pipeline: scale the image to
/// `width`×`height` and keep `columns`×`rows` of the result, in one pass of
/// the resizer (``ImageResizer/resize(_:width:height:columns:rows:extent:)``).
///
/// A pipeline's steps are composed into as few stages as the arithmetic
/// allows (``stages(of:width:height:)``), so that no intermediate image is
/// larger than needed: consecutive scalings are one scaling from the first
/// one's input (`thumbnail/4999x4999!|thumbnail/4998x4998!` on 64×48 is
/// one resize to 4998×4998, the 4999×4999 image is never made), and a crop
/// after a scaling is a region of it (the pixels cut away are never made).
/// A scaling after a crop starts a new stage: its input is the crop.
struct ResampleStage: Sendable, Equatable {
    var width: Int
    var height: Int
    var columns: Range<Int>
    var rows: Range<Int>

    var outputWidth: Int { columns.count }
    var outputHeight: Int { rows.count }
    var outputPixels: Int { columns.count * rows.count }
    var crops: Bool { columns.count != width || rows.count != height }

    /// The stages that make `pipeline` of a `width`×`height` input, with
    /// each step's geometry computed on the size the steps before it make,
    /// as when the steps run one by one. Steps that change nothing are
    /// left out, so an empty result means the pipeline keeps the input.
    static func stages(of pipeline: ProcessingPipeline, width: Int, height: Int) -> [ResampleStage] {
        var stages: [ResampleStage] = []
        var size = (width: width, height: height)
        for step in pipeline.steps {
            let geometry = ImageTransformer.geometry(of: step, width: size.width, height: size.height)
            let cropWidth = min(geometry.cropWidth ?? geometry.scaledWidth, geometry.scaledWidth)
            let cropHeight = min(geometry.cropHeight ?? geometry.scaledHeight, geometry.scaledHeight)
            let left = (geometry.scaledWidth - cropWidth) / 2
            let top = (geometry.scaledHeight - cropHeight) / 2
            let scales = geometry.scaledWidth != size.width || geometry.scaledHeight != size.height
            let crops = cropWidth != geometry.scaledWidth || cropHeight != geometry.scaledHeight
            guard scales || crops else { continue }
            if let last = stages.last, !last.crops {
                // A scaling of a scaling: one scaling from the first one's input.
                stages[stages.count - 1] = ResampleStage(
                    width: geometry.scaledWidth, height: geometry.scaledHeight, columns: left..<(left + cropWidth),
                    rows: top..<(top + cropHeight))
            } else if var last = stages.last, !scales {
                // A crop of a crop: a smaller region of the same scaling.
                let column = last.columns.lowerBound + left
                let row = last.rows.lowerBound + top
                last.columns = column..<(column + cropWidth)
                last.rows = row..<(row + cropHeight)
                stages[stages.count - 1] = last
            } else {
                stages.append(
                    ResampleStage(
                        width: geometry.scaledWidth, height: geometry.scaledHeight,
                        columns: left..<(left + cropWidth), rows: top..<(top + cropHeight)))
            }
            size = (cropWidth, cropHeight)
        }
        return stages
    }

    /// `image` through this stage.
    func apply(to image: Image, resizer: ImageResizer = ImageResizer()) throws(ImageCodecError) -> Image {
        try resizer.resize(image, width: width, height: height, columns: columns, rows: rows)
    }

    /// The bytes the resizer holds besides its input and output: the ring
    /// of horizontally filtered rows (at most a Lanczos-3 window, 6 rows
    /// per unit of scale plus 2) and one source row, 16 bytes a pixel.
    func workingBytes(inputWidth: Int, inputHeight: Int) -> Int {
        let scale = max(1, Double(inputHeight) / Double(max(height, 1)))
        let window = min(inputHeight, Int((6 * scale).rounded(.up)) + 2)
        return (window * outputWidth + inputWidth) * 16
    }
}
