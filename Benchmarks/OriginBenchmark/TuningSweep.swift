import Foundation
import WebPBridge

/// libwebp's finer settings (``WebPEncoder/Tuning``) and method/quality on
/// the origin's own paths at one width: a JPEG through its planes, any other
/// photo through RGBA, as ``ImageTransformer`` makes them. For each setting:
/// encode CPU ms per photo (best of `TUNING_RUNS`, 3), total bytes, and mean
/// luma SSIM against the source resized (Lanczos 3) from full size.
///
/// A setting is written `key=value,…` with keys `m` (method), `q` (quality),
/// `seg`, `sns`, `f` (filter strength), `sharp`, `strong` (0/1), `af` (0/1),
/// `parts`, `plimit`, `pass`, `pre`, `sharpyuv` (0/1); `default` alone is q80, method 4 and
/// libwebp's defaults. Settings are separated by `;`.
struct TuningSweep {
    var width: Int
    var settings: [String]
    var paths: [String]

    private struct Totals {
        var milliseconds = 0.0
        var bytes = 0
        var ssim = 0.0
    }

    /// One photo ready to encode: its planes or its pixels, and its reference.
    private enum Source {
        case planes(YUV420Image)
        case pixels(Image)
    }

    func run() throws {
        let runs = Int(ProcessInfo.processInfo.environment["TUNING_RUNS"] ?? "") ?? 3
        let options = try settings.map(Self.options)
        var totals = Array(repeating: Totals(), count: settings.count)
        for path in paths {
            let photo = try SweepPhoto(path: path, width: width)
            let (data, size, reference) = (photo.data, photo.size, photo.reference)
            let decoder = ImageDecoder()
            let source: Source
            if data.starts(with: [0xFF, 0xD8]),
                let yuv = try JPEGDecoder().decodeYUV420(data, width: size.width, height: size.height)
            {
                source = .planes(yuv)
            } else {
                source = .pixels(try decoder.decodeStill(data, fittingWidth: width))
            }
            for index in options.indices {
                let encoder = WebPEncoder(options: options[index])
                func encode() throws -> Data {
                    switch source {
                    case .planes(let yuv): return try encoder.encode(yuv)
                    case .pixels(let image): return try encoder.encode(image)
                    }
                }
                var best = Double.infinity
                var encoded = Data()
                for _ in 0..<max(runs, 1) {
                    let start = Self.processCPUSeconds()
                    encoded = try encode()
                    best = min(best, (Self.processCPUSeconds() - start) * 1000)
                }
                totals[index].milliseconds += best
                totals[index].bytes += encoded.count
                totals[index].ssim += try SSIM.luma(reference, try WebPDecoder().decode(encoded))
            }
        }
        let count = Double(paths.count)
        print("tuning at width \(width) over \(paths.count) photos: encode CPU ms, total bytes, mean luma SSIM")
        for (setting, total) in zip(settings, totals) {
            let figures = String(
                format: "%8.2f %9d %.4f", total.milliseconds / count, total.bytes, total.ssim / count)
            print("  \(setting.padding(toLength: 40, withPad: " ", startingAt: 0)) \(figures)")
        }
    }

    /// Options at q80, method 4 and libwebp's defaults, changed by `setting`.
    static func options(_ setting: String) throws -> WebPEncoder.Options {
        var options = WebPEncoder.Options(quality: 80)
        for pair in setting.split(separator: ",") where pair != "default" {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let number = Double(parts[1]) else {
                throw BenchmarkError("setting \(setting): expected key=number, got \(pair)")
            }
            let value = Int(number)
            switch parts[0] {
            case "m": options.method = value
            case "q": options.quality = Float(number)
            case "seg": options.tuning.segments = value
            case "sns": options.tuning.snsStrength = value
            case "f": options.tuning.filterStrength = value
            case "sharp": options.tuning.filterSharpness = value
            case "strong": options.tuning.usesStrongFilter = value != 0
            case "af": options.tuning.autofilter = value != 0
            case "parts": options.tuning.partitions = value
            case "plimit": options.tuning.partitionLimit = value
            case "pass": options.tuning.passes = value
            case "pre": options.tuning.preprocessing = value
            case "sharpyuv": options.usesSharpYUV = value != 0
            default: throw BenchmarkError("setting \(setting): unknown key \(parts[0])")
            }
        }
        return options
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
