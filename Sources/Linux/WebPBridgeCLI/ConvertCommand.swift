import Foundation
import WebPBridge

/// `webp-bridge convert`: one file, or a batch into a folder.
struct ConvertCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert images between WebP, JPEG, PNG, APNG, AVIF, PAM and PPM.",
        usage: [
            "IN OUT [--quality Q|auto[:TARGET]] [--speed S] [--lossless] [--width W] [--height H]",
            "--to FORMAT --out-dir DIR [--quality Q|auto[:TARGET]] [--speed S] [--lossless] [--width W]"
                + " [--height H] FILE...",
        ],
        discussion: """
            The input format is read from the bytes; the output format comes from OUT's extension
            (webp, jpg, jpeg, png, apng, avif, pam, ppm) or from --to. An animated input stays animated
            as webp or apng, and as avif (an image sequence, speed 8 unless --speed says) when it plays
            forever; it becomes its first frame otherwise. An AVIF image sequence is read as its first
            frame. --width and --height scale down to fit inside the box, keeping the aspect
            ratio; either alone is fine; images are never enlarged. PAM and PPM are written byte for
            byte as libwebp's dwebp writes them.
            """,
        arguments: [
            ("IN", "The image to convert."),
            ("OUT", "Where to write; its extension chooses the format."),
            ("FILE", "With --to and --out-dir: the images to convert."),
        ],
        options: [
            .option(
                "--quality", value: "Q",
                help: "WebP 0-100 (default 75), JPEG 1-100 (default 90)"
                    + " or AVIF 1-100 (default \(AVIFEncoder.defaultQuality)). For webp (lossy) and avif, "
                    + QualityOption.autoHelp),
            .option(
                "--speed", value: "S",
                help: "AVIF encoder speed, 0 (slowest, smallest) to 10 (default \(AVIFEncoder.defaultSpeed))."),
            .flag("--lossless", help: "Lossless WebP (webp output only)."),
            .option("--width", value: "W", help: "Scale down to at most W pixels wide."),
            .option("--height", value: "H", help: "Scale down to at most H pixels high."),
            .option(
                "--to", value: "FORMAT", help: "Batch: the output format (webp, jpg, png, apng, avif, pam, ppm)."),
            .option("--out-dir", value: "DIR", help: "Batch: the folder to write into (created if missing)."),
        ])

    enum Mode: Sendable {
        case single(input: String, output: String)
        case batch(files: [String], outputDirectory: String)
    }

    var mode: Mode
    var converter: ImageConverter

    init(parsed: ParsedArguments) throws(UsageError) {
        let format: ImageConverter.OutputFormat
        if let to = parsed.string("--to") {
            guard let outDir = parsed.string("--out-dir") else { throw UsageError("--to needs --out-dir DIR") }
            guard let chosen = ImageConverter.OutputFormat(fileExtension: to) else {
                throw UsageError("unknown format '\(to)' (use \(ImageConverter.OutputFormat.names))")
            }
            guard !parsed.positionals.isEmpty else { throw UsageError("missing FILE to convert") }
            format = chosen
            mode = .batch(files: parsed.positionals, outputDirectory: outDir)
        } else {
            if parsed.string("--out-dir") != nil { throw UsageError("--out-dir needs --to FORMAT") }
            try parsed.requirePositionals(2...2, describing: parsed.positionals.isEmpty ? "IN and OUT" : "OUT")
            let output = parsed.positionals[1]
            let fileExtension = (output as NSString).pathExtension
            guard let chosen = ImageConverter.OutputFormat(fileExtension: fileExtension) else {
                throw UsageError(
                    "cannot tell the output format from '\(output)'"
                        + " (use an extension: \(ImageConverter.OutputFormat.names))")
            }
            format = chosen
            mode = .single(input: parsed.positionals[0], output: output)
        }
        let lossless = parsed.flag("--lossless")
        if lossless && format != .webp { throw UsageError("--lossless applies to webp output only") }
        let quality = try QualityOption.parse(parsed, in: format == .webp ? 0...100 : 1...100)
        if quality != nil && !format.takesQuality {
            throw UsageError("--quality applies to webp, jpg and avif output only")
        }
        var fixedQuality: Int?
        var qualityTarget: Double?
        switch quality {
        case .fixed(let value): fixedQuality = value
        case .auto(let target):
            guard format == .webp || format == .avif, !lossless else {
                throw UsageError("--quality auto applies to lossy webp and avif output only")
            }
            qualityTarget = target
        case nil: break
        }
        let speed = try parsed.int("--speed", in: 0...10)
        if speed != nil && format != .avif { throw UsageError("--speed applies to avif output only") }
        converter = ImageConverter(
            format: format, quality: fixedQuality, qualityTarget: qualityTarget, speed: speed, lossless: lossless,
            maxWidth: try parsed.int("--width", in: 1...65_535),
            maxHeight: try parsed.int("--height", in: 1...65_535))
    }

    func run(io: CommandIO) async throws {
        switch mode {
        case .single(let input, let output):
            let data = try InputFile.read(input)
            if let work = converter.workPixels(of: data), work.pixels > DecodingLimits.serverWorkPixels {
                let frames = work.info.frames > 1 ? "\(work.info.frames) frames of " : ""
                io.printError(
                    "\(input): \(frames)\(work.info.width)x\(work.info.height): about"
                        + " \(work.pixels.formattedWithSeparators) pixels to decode and encode,"
                        + " \(work.pixels / DecodingLimits.serverWorkPixels)x what a server takes per request"
                        + " (--work-budget \(DecodingLimits.serverWorkPixels / 1_000_000)); converting")
            }
            let converted: Data
            do {
                converted = try converter.convert(data)
            } catch let error as ImageCodecError {
                throw CommandFailure("\(input): \(error)")
            }
            try InputFile.write(converted, to: output)
        case .batch(let files, let outputDirectory):
            try await BatchConversion(converter: converter, outputDirectory: outputDirectory).run(files, io: io)
        }
    }
}
