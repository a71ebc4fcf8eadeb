import Foundation
import WebPBridge

/// The origin's two ways of making a JPEG photo's WebP variant at one width,
/// side by side: RGBA (decode to RGBA, resize, libwebp converts to YUV) and
/// planes (``JPEGDecoder/decodeYUV420(_:width:height:)``, each plane resized,
/// libwebp codes them as they are). Process CPU ms per photo for each
/// stage (best of three), bytes, and luma SSIM against the source resized
/// (Lanczos 3) from full size.
struct PathComparison {
    var width: Int
    var paths: [String]

    private struct Totals {
        var decodeAndResize = 0.0
        var encode = 0.0
        var bytes = 0
        var ssim = 0.0
    }

    func run() throws {
        var rgba = Totals()
        var planes = Totals()
        var skipped = 0
        let encoder = WebPEncoder(options: .init(quality: 80))
        for path in paths {
            let photo = try SweepPhoto(path: path, width: width)
            let (data, size, reference) = (photo.data, photo.size, photo.reference)
            let decoder = ImageDecoder()
            guard let yuv = try JPEGDecoder().decodeYUV420(data, width: size.width, height: size.height) else {
                skipped += 1
                continue
            }
            let image = try decoder.decodeStill(data, fittingWidth: width)
            rgba.decodeAndResize += try best { _ = try decoder.decodeStill(data, fittingWidth: width) }
            planes.decodeAndResize += try best {
                _ = try JPEGDecoder().decodeYUV420(data, width: size.width, height: size.height)
            }
            rgba.encode += try best { _ = try encoder.encode(image) }
            planes.encode += try best { _ = try encoder.encode(yuv) }
            let fromRGBA = try encoder.encode(image)
            let fromPlanes = try encoder.encode(yuv)
            rgba.bytes += fromRGBA.count
            planes.bytes += fromPlanes.count
            rgba.ssim += try SSIM.luma(reference, WebPDecoder().decode(fromRGBA))
            planes.ssim += try SSIM.luma(reference, WebPDecoder().decode(fromPlanes))
        }
        let count = Double(paths.count - skipped)
        print("paths at width \(width) over \(paths.count - skipped) photos (\(skipped) not for planes):")
        print("  path    decode+resize ms  encode ms  total ms     bytes  mean SSIM")
        for (name, totals) in [("rgba  ", rgba), ("planes", planes)] {
            let line = String(
                format: "%16.2f %10.2f %9.2f %9d %10.4f", totals.decodeAndResize / count, totals.encode / count,
                (totals.decodeAndResize + totals.encode) / count, totals.bytes, totals.ssim / count)
            print("  \(name)\(line)")
        }
    }

    /// The least process CPU time of three runs of `body`, in milliseconds.
    private func best(_ body: () throws -> Void) throws -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            var start = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start)
            try body()
            var end = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end)
            let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
            best = min(best, seconds * 1000)
        }
        return best
    }
}
