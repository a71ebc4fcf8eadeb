import Foundation
import WebPBridge

/// `webp-bridge compare REFERENCE DISTORTED`: how close an encode is to
/// what was encoded, by the reference luma SSIM and the search's fast one.
struct CompareCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Print the luma SSIM and the fast SSIM --quality auto searches by, of two images of one size.",
        usage: ["REFERENCE DISTORTED [--json]"],
        discussion: """
            Both images are decoded (any format info reads) and must have the same size. 'ssim' is the
            reference luma SSIM the demo reports (Gaussian window, as scikit-image computes it);
            'fast' is the multi-scale box-window SSIM the origin's --quality auto searches by, and
            'fast1' the same at one scale. With --json, one JSON object with exactly those keys.
            """,
        arguments: [("REFERENCE", "The image that was encoded."), ("DISTORTED", "Its encode, decoded.")],
        options: [.flag("--json", help: "Print one JSON object.")])

    var reference: String
    var distorted: String
    var json: Bool

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(
            2...2, describing: parsed.positionals.isEmpty ? "REFERENCE and DISTORTED" : "DISTORTED")
        reference = parsed.positionals[0]
        distorted = parsed.positionals[1]
        json = parsed.flag("--json")
    }

    func run(io: CommandIO) async throws {
        let first = try Self.decode(reference)
        let second = try Self.decode(distorted)
        do {
            let ssim = try SSIM.luma(first, second)
            let fast = try FastSSIM.score(LumaPlane(first), LumaPlane(second))
            let fast1 = try FastSSIM.score(LumaPlane(first), LumaPlane(second), scales: 1)
            if json {
                io.print("{\"ssim\":\(ssim),\"fast\":\(fast),\"fast1\":\(fast1)}")
            } else {
                io.print("ssim \(ssim)\nfast \(fast)\nfast1 \(fast1)")
            }
        } catch {
            throw CommandFailure("\(reference), \(distorted): \(error)")
        }
    }

    private static func decode(_ file: String) throws -> Image {
        do {
            return try ImageDecoder().decodeStill(InputFile.read(file))
        } catch let error as ImageCodecError {
            throw CommandFailure("\(file): \(error)")
        }
    }
}
