import Foundation
import WebPBridge

/// The measurement behind the AVIF defaults: each (quality, speed) against
/// WebP q80 on the same photos at one width — total bytes, mean luma SSIM
/// against the Lanczos reference, mean encode CPU time (one run each; the
/// AV1 encoder's time dwarfs the noise).
struct AVIFSweep {
    var width: Int
    var paths: [String]

    private struct Row {
        var name: String
        var encode: (Image) throws(ImageCodecError) -> Data
        var milliseconds = 0.0
        var bytes = 0
        var ssim = 0.0
    }

    func run() throws {
        var rows = [
            Row(
                name: "webp q80",
                encode: { image throws(ImageCodecError) in
                    try WebPEncoder(options: .init(quality: 80)).encode(image)
                })
        ]
        for speed in [6, 8] {
            for quality in [50, 55, 60, 65, 70] {
                rows.append(
                    Row(
                        name: "avif q\(quality) s\(speed)",
                        encode: { image throws(ImageCodecError) in
                            try AVIFEncoder(options: .init(quality: quality, speed: speed)).encode(image)
                        }))
            }
        }
        for path in paths {
            let photo = try SweepPhoto(path: path, width: width)
            let reference = photo.reference
            for index in rows.indices {
                let start = Self.processCPUSeconds()
                let encoded = try rows[index].encode(reference)
                rows[index].milliseconds += (Self.processCPUSeconds() - start) * 1000
                rows[index].bytes += encoded.count
                rows[index].ssim += try SSIM.luma(reference, ImageDecoder().decodeStill(encoded))
            }
        }
        let count = Double(paths.count)
        let webp = rows[0]
        print(
            "at width \(width) over \(paths.count) photos:"
                + " mean encode CPU ms, total bytes (vs WebP q80), mean luma SSIM")
        for row in rows {
            let name = row.name.padding(toLength: 14, withPad: " ", startingAt: 0)
            let ratio = Double(row.bytes) / Double(webp.bytes)
            print(
                String(
                    format: "  %@ %8.1f ms %9d B %6.3f× %7.4f", name, row.milliseconds / count, row.bytes, ratio,
                    row.ssim / count))
        }
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
