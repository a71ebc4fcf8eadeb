import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI

/// `--quality auto[:TARGET]` on `origin` and `convert`: parsed into the
/// transformer's mode, refused with one clear line when the target is bad.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct QualityAutoOptionTests {
    @Test(arguments: [
        (["origin", "--root", "/tmp", "--quality", "auto:2"], "expects auto:TARGET with TARGET from 30.0 to 95.0"),
        (["origin", "--root", "/tmp", "--quality", "auto:0.99"], "got 'auto:0.99'"),
        (["origin", "--root", "/tmp", "--quality", "auto:96"], "got 'auto:96'"),
        (["origin", "--root", "/tmp", "--quality", "auto:７０"], "got 'auto:７０'"),
        (["origin", "--root", "/tmp", "--quality", "auto:"], "got 'auto:'"),
        (["origin", "--root", "/tmp", "--quality", "auto:nan"], "got 'auto:nan'"),
        (["origin", "--root", "/tmp", "--quality", "auto:-0.9"], "got 'auto:-0.9'"),
        (["origin", "--root", "/tmp", "--quality", "automatic"], "expects a whole number, got 'automatic'"),
        (["convert", "a.png", "b.webp", "--quality", "auto:7e1"], "got 'auto:7e1'"),
        (["convert", "a.png", "b.jpg", "--quality", "auto"], "--quality auto applies to lossy webp and avif"),
        (["convert", "a.png", "b.webp", "--quality", "auto", "--lossless"], "--quality auto applies to lossy webp"),
        (["convert", "a.png", "b.png", "--quality", "auto"], "--quality applies to webp, jpg and avif output only"),
    ])
    func badTargetsAreUsageErrors(arguments: [String], message: String) async {
        let result = await CapturedIO.run(arguments)
        #expect(result.status == 2)
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("error: ") && firstLine.contains(message), "\(firstLine)")
    }

    @Test func theModeReachesTheTransformer() throws {
        let folder = try TemporaryDirectory()
        func transformer(_ extra: [String]) throws -> ImageTransformer.Configuration {
            let arguments = ["--root", folder.url.path] + extra
            let command = try OriginCommand(
                parsed: ParsedArguments(arguments, configuration: OriginCommand.configuration))
            return try command.makeOrigin().configuration.transformer
        }
        #expect(try transformer([]).qualityMode == .fixed)
        #expect(try transformer(["--quality", "70"]).defaultWebPQuality == 70)
        #expect(try transformer(["--quality", "70"]).qualityMode == .fixed)
        #expect(
            try transformer(["--quality", "auto"]).qualityMode
                == .auto(target: ImageTransformer.QualityMode.defaultTarget))
        #expect(try transformer(["--quality", "auto:72.5"]).qualityMode == .auto(target: 72.5))
    }

    /// `convert --quality auto` writes an easy image smaller than the fixed
    /// default and still reaching the target.
    @Test func convertSearchesTowardsTheTarget() async throws {
        let folder = try TemporaryDirectory()
        let photo = SyntheticImages.photo(width: 320, height: 240)
        try PNGEncoder().encode(photo).write(to: folder.file("photo.png"))
        for format in ["webp", "avif"] {
            let fixed = await CapturedIO.run([
                "convert", folder.file("photo.png").path, folder.file("f.\(format)").path,
            ])
            let auto = await CapturedIO.run([
                "convert", folder.file("photo.png").path, folder.file("a.\(format)").path, "--quality", "auto:70",
            ])
            #expect(fixed.status == 0 && auto.status == 0, "\(fixed.stderr) \(auto.stderr)")
            let fixedBytes = try Data(contentsOf: folder.file("f.\(format)"))
            let autoBytes = try Data(contentsOf: folder.file("a.\(format)"))
            let decoded = try ImageDecoder().decodeStill(autoBytes)
            let score = try SSIMULACRA2.score(photo, decoded)
            #expect(autoBytes.count <= fixedBytes.count, "\(format): \(autoBytes.count) > \(fixedBytes.count)")
            #expect(score >= 70, "\(format): \(score)")
        }
    }

    @Test func comparePrintsTheMetricsAndRefusesSizesThatDiffer() async throws {
        let folder = try TemporaryDirectory()
        let photo = SyntheticImages.photo(width: 64, height: 48)
        try PNGEncoder().encode(photo).write(to: folder.file("a.png"))
        try WebPEncoder(options: .init(quality: 30)).encode(photo).write(to: folder.file("b.webp"))
        try PNGEncoder().encode(SyntheticImages.photo(width: 48, height: 48)).write(to: folder.file("c.png"))
        let same = await CapturedIO.run(["compare", folder.file("a.png").path, folder.file("a.png").path, "--json"])
        #expect(
            same.status == 0 && same.stdout == "{\"ssim\":1.0,\"s2\":100.0,\"fast\":1.0,\"fast1\":1.0,\"gms\":1.0}\n",
            "\(same.stdout)")
        let lossy = await CapturedIO.run(["compare", folder.file("a.png").path, folder.file("b.webp").path])
        let values = lossy.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        let similarities = values.filter { $0.first != "s2" }.compactMap { $0.last.flatMap { Double($0) } }
        let s2 = values.first { $0.first == "s2" }?.last.flatMap { Double($0) }
        #expect(
            lossy.status == 0 && similarities.count == 4 && similarities.allSatisfy { $0 < 1 && $0 > 0.5 },
            "\(lossy.stdout)")
        #expect(s2.map { $0 < 90 && $0 > 0 } == true, "\(lossy.stdout)")
        let sizes = await CapturedIO.run(["compare", folder.file("a.png").path, folder.file("c.png").path])
        #expect(sizes.status == 1 && sizes.stderr.contains("one size"), "\(sizes.stderr)")
    }
}
