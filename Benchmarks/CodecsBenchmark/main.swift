// The Swift side of `make bench-codecs`: the same three operations as
// bench/codecs_bench.c, through ImageCodecs, printed in the same format so
// the driver can put them side by side.
//
// usage: codecs-benchmark RUNS FILE.webp... -- FILE.png... [-- FILE.avif...]
// prints: "<operation> <images> <best seconds> <megapixels>" per operation;
// with AVIF files also avif-decode and avif-encode (one pass each, as the C side).
//
// usage: codecs-benchmark --transcoder THREADS SECONDS FILE...
// prints: "transcoder <threads> <images> <seconds> <format> <bytes>"
// The codec-only limit of the bridge's transcode path (`make bench-http`):
// the very call the bridge makes per request, with its default settings,
// on THREADS threads for SECONDS, no HTTP.
import Foundation
import WebPBridge

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--transcoder" {
    runTranscoderThroughput(Array(arguments.dropFirst()))
}
guard arguments.count >= 3, let runs = Int(arguments[0]), runs > 0,
    let separator = arguments.firstIndex(of: "--")
else {
    FileHandle.standardError.write(Data("usage: codecs-benchmark RUNS FILE.webp... -- FILE.png...\n".utf8))
    exit(2)
}

func load(_ paths: ArraySlice<String>) -> [Data] {
    paths.map { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
            exit(1)
        }
        return data
    }
}

let webpFiles = load(arguments[1..<separator])
let avifSeparator = arguments[(separator + 1)...].firstIndex(of: "--")
let pngFiles = load(arguments[(separator + 1)..<(avifSeparator ?? arguments.endIndex)])
let avifFiles = avifSeparator.map { load(arguments[($0 + 1)...]) } ?? []

/// Runs `operation` over every file `runs` times; returns the best total
/// seconds and the megapixels processed in one pass.
func measure(_ files: [Data], _ operation: (Data) throws -> Int) rethrows -> (seconds: Double, megapixels: Double) {
    let clock = ContinuousClock()
    var best = Double.infinity
    var megapixels = 0.0
    for _ in 0..<runs {
        var pixels = 0
        let elapsed = try clock.measure {
            for file in files { pixels += try operation(file) }
        }
        best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        megapixels = Double(pixels) / 1e6
    }
    return (best, megapixels)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

do {
    let decoder = WebPDecoder()
    let jpeg = JPEGEncoder(options: .init(quality: 90))
    let webp = WebPEncoder(options: .init(quality: 75, method: 4))
    let png = PNGDecoder()

    let decode = try measure(webpFiles) { data in
        let image = try decoder.decode(data)
        return image.pixelCount
    }
    print(
        "decode \(webpFiles.count) \(String(format: "%.6f", decode.seconds))"
            + " \(String(format: "%.4f", decode.megapixels))"
    )

    let transcode = try measure(webpFiles) { data in
        let image = try decoder.decode(data)
        _ = try jpeg.encode(image)
        return image.pixelCount
    }
    print(
        "transcode \(webpFiles.count) \(String(format: "%.6f", transcode.seconds))"
            + " \(String(format: "%.4f", transcode.megapixels))"
    )

    let encode = try measure(pngFiles) { data in
        let image = try png.decode(data)
        _ = try webp.encode(image)
        return image.pixelCount
    }
    print(
        "encode \(pngFiles.count) \(String(format: "%.6f", encode.seconds))"
            + " \(String(format: "%.4f", encode.megapixels))"
    )

    if !avifFiles.isEmpty {
        // AVIFEncoder's defaults (quality 60, speed 6, one thread), as the C side sets them.
        let clock = ContinuousClock()
        var pixels = 0
        let decodeTime = try clock.measure {
            for file in avifFiles { pixels += try AVIFDecoder().decode(file).pixelCount }
        }
        print("avif-decode \(avifFiles.count) \(String(format: "%.6f", seconds(decodeTime))) \(Double(pixels) / 1e6)")
        let encodes = Array(pngFiles.prefix(avifFiles.count))
        pixels = 0
        let encodeTime = try clock.measure {
            for file in encodes {
                let image = try png.decode(file)
                _ = try AVIFEncoder().encode(image)
                pixels += image.pixelCount
            }
        }
        print("avif-encode \(encodes.count) \(String(format: "%.6f", seconds(encodeTime))) \(Double(pixels) / 1e6)")
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
