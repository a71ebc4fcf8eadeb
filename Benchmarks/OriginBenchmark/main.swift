// The Swift side of `make bench-origin` (bench/bench_origin.py runs it): the
// load of one server, the quality of what it answered, and the encoder sweep
// that chose the origin's WebP settings. A benchmark, not a test.
//
// usage: origin-benchmark load CLIENTS SECONDS LIST
//   LIST: lines "URL<TAB>OUTPUT"; CLIENTS requests at a time, each answer's body written to OUTPUT;
//   stops starting requests after SECONDS. Prints "load <answers> <failures> <seconds> <bytes>".
// usage: origin-benchmark quality LIST
//   LIST: lines "SOURCE<TAB>VARIANT"; the luma SSIM of each variant against its source
//   resized (Lanczos 3) to the variant's size. Prints "quality <variants> <mean SSIM> <bytes>".
// usage: origin-benchmark encoder WIDTH FILE...
//   Decode, resize and encode stages, and each WebP setting's time, bytes and SSIM, at WIDTH.
// usage: origin-benchmark avif WIDTH FILE...
//   Each AVIF (quality, speed) against WebP q80 at WIDTH: encode CPU time, bytes, luma SSIM.
// usage: origin-benchmark paths WIDTH FILE...
//   A JPEG's WebP at WIDTH made through RGBA and through YUV planes: CPU ms per stage, bytes, SSIM.
// usage: origin-benchmark tuning WIDTH SETTINGS FILE...
//   Each libwebp setting ("m=3,q=82,seg=2;sns=25", see TuningSweep) on the origin's paths at WIDTH:
//   encode CPU ms, bytes, SSIM.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: origin-benchmark load CLIENTS SECONDS LIST
           origin-benchmark quality LIST
           origin-benchmark encoder WIDTH FILE...
           origin-benchmark avif WIDTH FILE...
           origin-benchmark paths WIDTH FILE...
           origin-benchmark tuning WIDTH SETTINGS FILE...
    """

do {
    switch (arguments.first, arguments.count) {
    case ("load", 4):
        guard let clients = Int(arguments[1]), clients > 0, let seconds = Double(arguments[2]), seconds > 0 else {
            throw BenchmarkError("CLIENTS and SECONDS must be positive numbers")
        }
        let result = LoadRun(list: try TabList(path: arguments[3]), clients: clients, seconds: seconds).run()
        print("load \(result.answers) \(result.failures) \(result.seconds) \(result.bytes)")
        for failure in result.failureSamples { FileHandle.standardError.write(Data("\(failure)\n".utf8)) }
    case ("quality", 2):
        let result = try QualityRun(list: try TabList(path: arguments[1])).run()
        print("quality \(result.count) \(result.meanSSIM) \(result.bytes)")
    case ("encoder", 3...):
        guard let width = Int(arguments[1]), width > 0 else { throw BenchmarkError("WIDTH must be positive") }
        try EncoderSweep(width: width, paths: Array(arguments.dropFirst(2))).run()
    case ("avif", 3...):
        guard let width = Int(arguments[1]), width > 0 else { throw BenchmarkError("WIDTH must be positive") }
        try AVIFSweep(width: width, paths: Array(arguments.dropFirst(2))).run()
    case ("paths", 3...):
        guard let width = Int(arguments[1]), width > 0 else { throw BenchmarkError("WIDTH must be positive") }
        try PathComparison(width: width, paths: Array(arguments.dropFirst(2))).run()
    case ("tuning", 4...):
        guard let width = Int(arguments[1]), width > 0 else { throw BenchmarkError("WIDTH must be positive") }
        let settings = arguments[2].split(separator: ";").map(String.init)
        try TuningSweep(width: width, settings: settings, paths: Array(arguments.dropFirst(3))).run()
    default:
        FileHandle.standardError.write(Data("\(usage)\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("origin-benchmark: \(error)\n".utf8))
    exit(1)
}
