import Foundation
import WebPBridge

/// How the origin's variant time splits between decoding, resizing and
/// encoding, and what each WebP setting costs and saves, on real photos at
/// one width: the measurement behind the origin's defaults. Each time is the
/// best of three runs (process CPU time, so a threaded encode counts whole).
struct EncoderSweep {
    var width: Int
    var paths: [String]

    /// One WebP setting and its totals over the photos.
    private struct Setting {
        var name: String
        var options: WebPEncoder.Options
        var milliseconds = 0.0
        var bytes = 0
        var ssim = 0.0
    }

    /// A stage's total over the photos it applies to.
    private struct Stage {
        var total = 0.0
        var count = 0
    }

    func run() throws {
        var settings = Self.settings()
        var stages: [String: Stage] = [:]
        func record(_ name: String, _ value: Double) {
            stages[name, default: Stage()].total += value
            stages[name, default: Stage()].count += 1
        }
        for path in paths {
            let photo = try SweepPhoto(path: path, width: width)
            let (data, full, size, reference) = (photo.data, photo.full, photo.size, photo.reference)
            let decoder = ImageDecoder()
            record("decode full", try Self.best { _ = try decoder.decodeStill(data) })
            record("decode + resize (origin)", try Self.best { _ = try decoder.decodeStill(data, fittingWidth: width) })
            // Each DCT scale (k/8) that covers the width, decoded with no resize, then resized.
            for eighths in 1...8 {
                let scaledWidth = (full.width * eighths + 7) / 8
                guard scaledWidth >= size.width else { continue }
                let scaled = try decoder.decodeStill(data, fittingWidth: scaledWidth)
                record(
                    "decode at \(eighths)/8",
                    try Self.best { _ = try decoder.decodeStill(data, fittingWidth: scaledWidth) })
                for filter in [ImageResizer.Filter.lanczos3, .areaAverage] {
                    record(
                        "resize \(filter) from \(eighths)/8",
                        try Self.best {
                            _ = try ImageResizer(filter: filter).resize(scaled, width: size.width, height: size.height)
                        })
                }
                let resized = try ImageResizer().resize(scaled, width: size.width, height: size.height)
                record("SSIM lanczos3 from \(eighths)/8", try SSIM.luma(reference, resized))
            }
            let variant = try decoder.decodeStill(data, fittingWidth: width)
            record("SSIM origin decode vs reference", try SSIM.luma(reference, variant))
            for index in settings.indices {
                let encoder = WebPEncoder(options: settings[index].options)
                let encoded = try encoder.encode(variant)
                settings[index].milliseconds += try Self.best { _ = try encoder.encode(variant) }
                settings[index].bytes += encoded.count
                settings[index].ssim += try SSIM.luma(reference, try WebPDecoder().decode(encoded))
            }
        }
        print("stages at width \(width): mean CPU ms (or SSIM) per photo, over how many photos")
        for (name, stage) in stages.sorted(by: { $0.key < $1.key }) {
            let value = String(format: name.hasPrefix("SSIM") ? "%8.4f" : "%8.2f", stage.total / Double(stage.count))
            print("  \(name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(value) \(stage.count)")
        }
        print("WebP at width \(width): mean CPU ms, total bytes, mean luma SSIM against the Lanczos reference")
        let count = Double(paths.count)
        for setting in settings {
            let name = setting.name.padding(toLength: 18, withPad: " ", startingAt: 0)
            let figures = String(
                format: "%8.2f %9d %.4f", setting.milliseconds / count, setting.bytes, setting.ssim / count)
            print("  \(name) \(figures)")
        }
    }

    /// Every method at q80, threads and sharp YUV at methods 2 and 4, and
    /// qualities around 80 at methods 2–4 (to compare them at equal SSIM).
    private static func settings() -> [Setting] {
        var settings = (0...6).map { Setting(name: "method \($0) q80", options: .init(quality: 80, method: $0)) }
        for method in [2, 4] {
            settings.append(
                Setting(
                    name: "method \(method) threads", options: .init(quality: 80, method: method, usesThreads: true)))
            settings.append(
                Setting(name: "method \(method) sharp", options: .init(quality: 80, method: method, usesSharpYUV: true))
            )
        }
        for method in [2, 3, 4] {
            for quality in [76, 78, 82, 84] {
                let options = WebPEncoder.Options(quality: Float(quality), method: method)
                settings.append(Setting(name: "method \(method) q\(quality)", options: options))
            }
        }
        return settings
    }

    /// The least process CPU time of three runs of `body`, in milliseconds.
    private static func best(_ body: () throws -> Void) throws -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = processCPUSeconds()
            try body()
            best = min(best, (processCPUSeconds() - start) * 1000)
        }
        return best
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
