import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Every corpus PNG and GIF, damaged at many offsets, must decode or fail
/// with an ``ImageCodecError`` — never crash, hang or trap.
@Suite(
    "Damaged PNG and GIF input",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct DamagedInputTests {
    /// The corpus's PNG and GIF edge cases (none when `edge/` cannot be
    /// read: ``theEdgeCasesAreListed()`` fails then, instead of the
    /// parameterised tests passing with no case).
    static let files = ((try? Corpus.files(in: "edge", extensions: ["png", "gif"])) ?? [])

    @Test func theEdgeCasesAreListed() throws {
        let listed = try Corpus.files(in: "edge", extensions: ["png", "gif"])
        #expect(!listed.isEmpty && listed == Self.files)
    }

    @Test("bytes flipped at 24 offsets", arguments: files)
    func flippedBytes(name: String) throws {
        let original = try Corpus.data("edge/\(name)")
        let step = max(1, original.count / 24)
        for offset in stride(from: 0, to: original.count, by: step) {
            var damaged = original
            damaged[offset] ^= 0xA5
            decodeEverything(damaged)
        }
    }

    @Test("cut at 16 lengths", arguments: files)
    func truncated(name: String) throws {
        let original = try Corpus.data("edge/\(name)")
        let step = max(1, original.count / 16)
        for length in stride(from: 0, to: original.count, by: step) {
            decodeEverything(original.prefix(length))
        }
    }

    /// Runs every decoder that could be handed `data`; errors are expected.
    private func decodeEverything(_ data: Data) {
        _ = try? PNGDecoder().decode(data)
        _ = try? PNGDecoder.readHeader(data)
        _ = try? APNGDecoder().decode(data)
        _ = try? GIFDecoder().decode(data)
        _ = try? GIFDecoder.readHeader(data)
    }
}
