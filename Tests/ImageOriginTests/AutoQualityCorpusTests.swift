import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `--quality auto` on Kodak photos published as JPEG q90 and served 750 px
/// wide, as the demo serves its photos: every variant reaches the target (or
/// is the fixed default's), none is bigger than the fixed quality's, and
/// together they are smaller. Six of the 24 photos, to bound the suite's
/// time; bench/quality_cpu.py measures all 24 on a release build.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct AutoQualityCorpusTests {
    struct Figures {
        var bytes = 0
        var cpu: [Double] = []
        var fast: [Double] = []
        var ssim: [Double] = []
        var qualities: [Int] = []

        func line(_ name: String) -> String {
            let cpu = cpu.sorted()
            return "\(name): \(bytes) B, CPU median \(String(format: "%.1f", cpu[cpu.count / 2] * 1000)) ms,"
                + " SSIMULACRA 2 min \(String(format: "%.2f", fast.min() ?? 0)) mean"
                + " \(String(format: "%.2f", fast.reduce(0, +) / Double(fast.count))),"
                + " SSIM min \(String(format: "%.4f", ssim.min() ?? 0)) mean"
                + " \(String(format: "%.4f", ssim.reduce(0, +) / Double(ssim.count)))"
                + (qualities.isEmpty ? "" : ", qualities \(qualities.sorted())")
        }
    }

    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test(arguments: [ImageFormat.webp, .avif])
    func kodakAt750ReachesTheTargetInFewerBytes(format: ImageFormat) throws {
        let target = ImageTransformer.QualityMode.defaultTarget
        var configuration = ImageTransformer.Configuration()
        let fixedTransformer = ImageTransformer(configuration: configuration)
        configuration.qualityMode = .auto(target: target)
        let autoTransformer = ImageTransformer(configuration: configuration)
        let ceiling = format == .webp ? configuration.defaultWebPQuality : configuration.defaultAVIFQuality
        let pipeline = ProcessingPipeline(
            steps: [.imageView2(ImageView2(mode: 2, width: 750, format: format))], ignoresErrors: false)
        var fixed = Figures()
        var auto = Figures()
        for name in Corpus.kodakNames.enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
            let jpeg = try JPEGEncoder(options: .init(quality: 90)).encode(
                PNGDecoder().decode(Corpus.data("kodak/\(name)")))
            let decoded = try JPEGDecoder().decode(jpeg)
            for (transformer, isAuto) in [(fixedTransformer, false), (autoTransformer, true)] {
                let start = Self.cpuSeconds()
                let output = try transformer.transform(jpeg, pipeline: pipeline)
                let cpu = Self.cpuSeconds() - start
                #expect(output.format == format && !output.isSource)
                let variant = try ImageDecoder().decodeStill(output.data)
                // Never enlarged: the portrait photos (512 wide) keep their size.
                let reference =
                    variant.width == decoded.width
                    ? decoded : try ImageResizer().resize(decoded, width: variant.width, height: variant.height)
                let fast = try SSIMULACRA2.score(reference, variant)
                let ssim = try SSIM.luma(reference, variant)
                if isAuto {
                    let quality = try #require(output.searchedQuality)
                    auto.bytes += output.data.count
                    auto.cpu.append(cpu)
                    auto.fast.append(fast)
                    auto.ssim.append(ssim)
                    auto.qualities.append(quality)
                    // Against the resized RGB here; the WebP search scored its planes, converted alike.
                    #expect(fast >= target - 1.5 || quality == ceiling, "\(name) q\(quality): \(fast)")
                } else {
                    fixed.bytes += output.data.count
                    fixed.cpu.append(cpu)
                    fixed.fast.append(fast)
                    fixed.ssim.append(ssim)
                }
            }
            #expect(auto.bytes <= fixed.bytes, "\(name): auto bigger than fixed so far")
        }
        print(fixed.line("\(format) fixed q\(ceiling)"))
        print(auto.line("\(format) auto \(target)"))
        let saved = 1 - Double(auto.bytes) / Double(fixed.bytes)
        print("\(format): auto saves \(String(format: "%.1f", saved * 100))% of the fixed quality's bytes")
        #expect(auto.bytes < fixed.bytes)
        #expect(auto.fast.min() ?? 0 >= min(target, fixed.fast.min() ?? 0) - 1.5)
    }
}
