import Foundation
import WebPBridge

/// The mean luma SSIM of variants against their sources resized (Lanczos 3,
/// from the full-size decode) to each variant's size.
struct QualityRun {
    var list: TabList

    func run() throws -> (count: Int, meanSSIM: Double, bytes: Int) {
        let decoder = ImageDecoder()
        // Rows sorted by source: each source is decoded once and only one is held at a time.
        var source: (path: String, image: Image)?
        var total = 0.0
        var bytes = 0
        for row in list.rows.sorted(by: { $0.first < $1.first }) {
            guard let variantData = FileManager.default.contents(atPath: row.second) else {
                throw BenchmarkError("cannot read \(row.second)")
            }
            if source?.path != row.first {
                guard let data = FileManager.default.contents(atPath: row.first) else {
                    throw BenchmarkError("cannot read \(row.first)")
                }
                source = (row.first, try decoder.decodeStill(data))
            }
            guard let original = source?.image else { continue }
            let variant = try decoder.decodeStill(variantData)
            let reference = try ImageResizer().resize(original, width: variant.width, height: variant.height)
            total += try SSIM.luma(reference, variant)
            bytes += variantData.count
        }
        return (list.rows.count, list.rows.isEmpty ? 0 : total / Double(list.rows.count), bytes)
    }
}
