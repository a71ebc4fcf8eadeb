import Foundation
import WebPBridge

/// `webp-bridge compare REFERENCE DISTORTED`: how close an encode is to
/// what was encoded, by the reference luma SSIM, SSIMULACRA 2 (what
/// `--quality auto` searches by), the fast SSIM and the gradient similarity.
struct CompareCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Print the luma SSIM, SSIMULACRA 2 (what --quality auto searches by), a fast SSIM and GMS.",
        usage: ["REFERENCE DISTORTED [--json] [--timing]"],
        discussion: """
            Both images are decoded (any format info reads) and must have the same size. 'ssim' is the
            reference luma SSIM the demo reports (Gaussian window, as scikit-image computes it);
            's2' is SSIMULACRA 2 (100 identical, 90 visually lossless, 50 medium), the score the
            origin's --quality auto searches by (within 0.01 of PyPI ssimulacra2 0.3.0);
            'fast' is a two-scale box-window SSIM and 'fast1' the same at one scale; 'gms' is the
            mean gradient-magnitude similarity at half size.
            With --json, one JSON object with exactly those keys.
            With --timing, also the median microseconds of 9 runs of each metric ('s2-candidate': one
            score against a reference and working planes prepared once, as a search pays per encode) and of one lossy
            WebP encode (q80, method 4) of REFERENCE, for comparing their cost.
            """,
        arguments: [("REFERENCE", "The image that was encoded."), ("DISTORTED", "Its encode, decoded.")],
        options: [
            .flag("--json", help: "Print one JSON object."),
            .flag("--timing", help: "Also print each metric's and one WebP encode's median microseconds."),
        ])

    var reference: String
    var distorted: String
    var json: Bool
    var timing: Bool

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(
            2...2, describing: parsed.positionals.isEmpty ? "REFERENCE and DISTORTED" : "DISTORTED")
        reference = parsed.positionals[0]
        distorted = parsed.positionals[1]
        json = parsed.flag("--json")
        timing = parsed.flag("--timing")
    }

    func run(io: CommandIO) async throws {
        let first = try Self.decode(reference)
        let second = try Self.decode(distorted)
        do {
            let ssim = try SSIM.luma(first, second)
            let fast = try FastSSIM.score(LumaPlane(first), LumaPlane(second))
            let fast1 = try FastSSIM.score(LumaPlane(first), LumaPlane(second), scales: 1)
            let gms = try GradientSimilarity.score(LumaPlane(first), LumaPlane(second))
            let s2 = try SSIMULACRA2.score(first, second)
            if json {
                io.print("{\"ssim\":\(ssim),\"s2\":\(s2),\"fast\":\(fast),\"fast1\":\(fast1),\"gms\":\(gms)}")
            } else {
                io.print("ssim \(ssim)\ns2 \(s2)\nfast \(fast)\nfast1 \(fast1)\ngms \(gms)")
            }
            if timing { try printTimings(first, second, io: io) }
        } catch {
            throw CommandFailure("\(reference), \(distorted): \(error)")
        }
    }

    /// Median microseconds of 9 runs of each metric (luma planes included) and of one WebP encode.
    private func printTimings(_ first: Image, _ second: Image, io: CommandIO) throws {
        func median(_ work: () throws -> Void) rethrows -> Int {
            let clock = ContinuousClock()
            var runs: [Duration] = []
            for _ in 0..<9 {
                let start = clock.now
                try work()
                runs.append(clock.now - start)
            }
            let middle = runs.sorted()[4].components
            return Int(middle.seconds) * 1_000_000 + Int(middle.attoseconds / 1_000_000_000_000)
        }
        let ssim = try median { _ = try SSIM.luma(first, second) }
        let fast = try median { _ = try FastSSIM.score(LumaPlane(first), LumaPlane(second)) }
        let fast1 = try median { _ = try FastSSIM.score(LumaPlane(first), LumaPlane(second), scales: 1) }
        let gms = try median { _ = try GradientSimilarity.score(LumaPlane(first), LumaPlane(second)) }
        let s2 = try median { _ = try SSIMULACRA2.score(first, second) }
        // As a search scores its trials: the reference and the working planes made once.
        let scorer = try SSIMULACRA2.Scorer(first)
        let candidate = try median { _ = try scorer.score(second) }
        let encode = try median { _ = try WebPEncoder(options: .init(quality: 80, method: 4)).encode(first) }
        io.print(
            "microseconds: ssim \(ssim), s2 \(s2), s2-candidate \(candidate), fast \(fast), fast1 \(fast1),"
                + " gms \(gms), webp-encode-q80 \(encode)")
    }

    private static func decode(_ file: String) throws -> Image {
        do {
            return try ImageDecoder().decodeStill(InputFile.read(file))
        } catch let error as ImageCodecError {
            throw CommandFailure("\(file): \(error)")
        }
    }
}
