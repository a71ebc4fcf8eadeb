import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ConvertCommandTests {
    let folder: TemporaryDirectory
    let photoPNG: URL

    init() throws {
        folder = try TemporaryDirectory()
        photoPNG = folder.file("photo.png")
        try PNGEncoder().encode(SyntheticImages.photo(width: 300, height: 200)).write(to: photoPNG)
    }

    @Test(arguments: [
        ("out.webp", ImageFormat.webp), ("out.jpg", .jpeg), ("out.JPEG", .jpeg), ("out.png", .png), ("out.apng", .apng),
        ("out.avif", .avif),
    ])
    func outputFormatFollowsTheExtension(name: String, format: ImageFormat) async throws {
        let result = await CapturedIO.run(["convert", photoPNG.path, folder.file(name).path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ImageFormat.sniff(Data(contentsOf: folder.file(name))) == format)
    }

    @Test func avifQualityAndSpeedChangeTheOutputAndInfoSaysAVIF() async throws {
        for (name, flags) in [("q20.avif", ["--quality", "20"]), ("q90.avif", ["--quality", "90", "--speed", "9"])] {
            let result = await CapturedIO.run(["convert", photoPNG.path, folder.file(name).path] + flags)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let small = try Data(contentsOf: folder.file("q20.avif"))
        #expect(small.count < (try Data(contentsOf: folder.file("q90.avif"))).count)
        let info = await CapturedIO.run(["info", folder.file("q20.avif").path, "--json"])
        #expect(info.stdout.contains("\"format\":\"avif\""), "\(info.stdout)")
        // Back from AVIF to PNG at the same size.
        let back = await CapturedIO.run(["convert", folder.file("q20.avif").path, folder.file("back.png").path])
        #expect(back.status == 0, "\(back.stderr)")
        let decoded = try PNGDecoder().decode(Data(contentsOf: folder.file("back.png")))
        #expect(decoded.width == 300 && decoded.height == 200)
        let speedOnWebP = await CapturedIO.run(["convert", photoPNG.path, folder.file("x.webp").path, "--speed", "3"])
        #expect(speedOnWebP.status != 0 && speedOnWebP.stderr.contains("--speed applies to avif output only"))
    }

    @Test func pamAndPPMHaveDwebpHeaders() async throws {
        _ = await CapturedIO.run(["convert", photoPNG.path, folder.file("o.pam").path])
        _ = await CapturedIO.run(["convert", photoPNG.path, folder.file("o.ppm").path])
        let pam = try Data(contentsOf: folder.file("o.pam"))
        let ppm = try Data(contentsOf: folder.file("o.ppm"))
        let pamHeader = "P7\nWIDTH 300\nHEIGHT 200\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(pam.starts(with: Data(pamHeader.utf8)))
        #expect(pam.count == pamHeader.utf8.count + 300 * 200 * 4)
        #expect(ppm.starts(with: Data("P6\n300 200\n255\n".utf8)))
        #expect(ppm.count == "P6\n300 200\n255\n".utf8.count + 300 * 200 * 3)
    }

    @Test(arguments: [
        (["--width", "150"], 150, 100), (["--height", "50"], 75, 50), (["--width", "150", "--height", "20"], 30, 20),
        (["--width", "1000"], 300, 200),
    ])
    func resizeFitsTheBoxAndNeverEnlarges(flags: [String], width: Int, height: Int) async throws {
        let out = folder.file("sized.webp")
        let result = await CapturedIO.run(["convert", photoPNG.path, out.path] + flags)
        #expect(result.status == 0)
        let info = try ImageInfo(Data(contentsOf: out))
        #expect(info.width == width && info.height == height)
    }

    @Test func losslessAndQualityChangeTheOutput() async throws {
        _ = await CapturedIO.run(["convert", photoPNG.path, folder.file("q10.webp").path, "--quality", "10"])
        _ = await CapturedIO.run(["convert", photoPNG.path, folder.file("q95.webp").path, "--quality", "95"])
        _ = await CapturedIO.run(["convert", photoPNG.path, folder.file("ll.webp").path, "--lossless"])
        let small = try Data(contentsOf: folder.file("q10.webp")).count
        let large = try Data(contentsOf: folder.file("q95.webp")).count
        #expect(small < large)
        let lossless = try WebPDecoder().decode(Data(contentsOf: folder.file("ll.webp")))
        #expect(lossless.pixels == SyntheticImages.photo(width: 300, height: 200).pixels)
    }

    @Test func animationsStayAnimatedAsWebPAPNGAndAVIFAndFlattenOtherwise() async throws {
        let animated = folder.file("anim.webp")
        try WebPEncoder().encode(SyntheticImages.animation(width: 40, height: 30, frameCount: 3)).write(to: animated)
        for (name, frames) in [("a.apng", 3), ("a.webp", 3), ("a.avif", 3), ("a.png", 1), ("a.jpg", 1)] {
            let result = await CapturedIO.run(["convert", animated.path, folder.file(name).path])
            #expect(result.status == 0)
            #expect(try ImageInfo(Data(contentsOf: folder.file(name))).frames == frames, "\(name)")
        }
        // An AVIF sequence plays forever: an animation that plays twice becomes its first frame.
        let twice = folder.file("twice.gif")
        try GIFEncoder().encode(SyntheticImages.animation(width: 40, height: 30, frameCount: 3, loopCount: 2))
            .write(to: twice)
        #expect(await CapturedIO.run(["convert", twice.path, folder.file("twice.avif").path]).status == 0)
        #expect(try ImageInfo(Data(contentsOf: folder.file("twice.avif"))).frames == 1)
    }

    /// Issue 26, finding 11: `convert` keeps generous limits, but says what
    /// a file will cost when it passes what a server takes per request.
    @Test func aFileOverTheServersWorkBudgetIsNamedWithItsCost() async throws {
        let tall = folder.file("tall.webp")
        try SyntheticAnimatedWebP.make(canvasWidth: 245, canvasHeight: 65_537, frameCount: 40).write(to: tall)
        // Refused afterwards from the header (WebP holds 16,383 pixels a side): the cost is said first,
        // every frame counted four times (sampled, encoded, decoded for the drift check, encoded whole).
        let result = await CapturedIO.run(["convert", tall.path, folder.file("tall-out.webp").path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("40 frames of 245x65537: about 5,138,100,800 pixels to decode and encode"),
            "\(result.stderr)")
        let small = await CapturedIO.run(["convert", photoPNG.path, folder.file("quiet.webp").path])
        #expect(small.status == 0 && small.stderr.isEmpty, "a file within the budget converts quietly")
    }

    @Test(arguments: [
        (["convert"], "missing IN and OUT"),
        (["convert", "a.png"], "missing OUT"),
        (["convert", "a.png", "b.gif"], "cannot tell the output format from 'b.gif'"),
        (["convert", "a.png", "b.png", "--quality", "80"], "--quality applies to webp, jpg and avif output only"),
        (["convert", "a.png", "b.jpg", "--lossless"], "--lossless applies to webp output only"),
        (["convert", "a.png", "b.jpg", "--quality", "0"], "option '--quality' must be between 1 and 100, got 0"),
        (["convert", "a.png", "b.webp", "--width", "wide"], "option '--width' expects a whole number, got 'wide'"),
        (["convert", "a.png", "b.webp", "--bogus"], "unknown option '--bogus'"),
        (["convert", "--to", "webp", "a.png"], "--to needs --out-dir DIR"),
        (["convert", "--to", "tiff", "--out-dir", "x", "a.png"], "unknown format 'tiff'"),
    ])
    func usageErrorsExitTwoWithOneClearLine(arguments: [String], message: String) async {
        let result = await CapturedIO.run(arguments)
        #expect(result.status == 2)
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("error: ") && firstLine.contains(message), "\(firstLine)")
        #expect(result.stdout.isEmpty)
    }

    @Test func badInputExitsOneWithOneLine() async throws {
        let notAnImage = folder.file("notes.png")
        try Data("hello".utf8).write(to: notAnImage)
        for input in [notAnImage.path, folder.file("missing.png").path, folder.url.path] {
            let result = await CapturedIO.run(["convert", input, folder.file("x.webp").path])
            #expect(result.status == 1)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func batchConvertsEveryFileAndSummarises() async throws {
        let second = folder.file("second.png")
        try PNGEncoder().encode(SyntheticImages.photo(width: 100, height: 80, seed: 4)).write(to: second)
        let out = folder.file("out")
        let result = await CapturedIO.run([
            "convert", "--to", "webp", "--out-dir", out.path, photoPNG.path, second.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("photo.webp").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("second.webp").path))
        #expect(result.stdout.hasPrefix("converted 2 of 2 files: "))
        #expect(result.stdout.contains("saved "))
    }

    @Test func batchReportsFailuresAndExitsOne() async throws {
        let broken = folder.file("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: broken)
        let result = await CapturedIO.run([
            "convert", "--to", "jpg", "--out-dir", folder.file("o").path, photoPNG.path, broken.path,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("converted 1 of 2 files"))
        #expect(result.stderr.contains("broken.png"))
    }
}

/// `convert` reproduces libwebp's reference output for every conformance vector.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct ConvertConformanceTests {
    @Test func reproducesAll258ReferenceSums() async throws {
        let folder = try TemporaryDirectory()
        let list = try String(contentsOf: Corpus.url("webp-conformance/libwebp_tests.md5"), encoding: .utf8)
        var matched = 0
        var mismatched: [String] = []
        for line in list.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            let name = String(parts[1])
            let source = (name as NSString).deletingPathExtension
            let output = folder.file("out.\((name as NSString).pathExtension)")
            let result = await CapturedIO.run([
                "convert", try Corpus.url("webp-conformance/\(source)").path, output.path,
            ])
            if result.status == 0, MD5.hexDigest(try Data(contentsOf: output)) == parts[0] {
                matched += 1
            } else {
                mismatched.append(name)
            }
        }
        #expect(matched == 258)
        #expect(mismatched.isEmpty)
    }
}
