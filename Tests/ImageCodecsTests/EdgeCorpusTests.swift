import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Every file in `corpus/edge`: it decodes and matches what the file really
/// is (`webpmux -info`, the GIF's own records), or it fails with a typed error.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct EdgeCorpusTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var format: ImageFormat
        var width: Int
        var height: Int
        var frames: Int
        var alpha: Bool
        var testDescription: String { file }
    }

    /// Sizes, frame counts and alpha as `webpmux -info`, `file` and the GIF
    /// records say. Alpha is whether the file declares transparency.
    static let decodable: [Expectation] = [
        .init(file: "anim_frame1.webp", format: .webp, width: 82, height: 82, frames: 1, alpha: false),
        .init(file: "anim_frame2.webp", format: .webp, width: 82, height: 82, frames: 1, alpha: false),
        .init(file: "chi.gif", format: .gif, width: 320, height: 240, frames: 31, alpha: true),
        .init(file: "different_transparency.gif", format: .gif, width: 100, height: 100, frames: 2, alpha: true),
        .init(file: "dispose_bgnd.gif", format: .gif, width: 100, height: 100, frames: 5, alpha: false),
        .init(file: "dispose_prev.gif", format: .gif, width: 100, height: 100, frames: 5, alpha: false),
        .init(file: "flower.jpg", format: .jpeg, width: 480, height: 360, frames: 1, alpha: false),
        .init(file: "flower.webp", format: .webp, width: 480, height: 360, frames: 1, alpha: false),
        .init(file: "hopper.gif", format: .gif, width: 128, height: 128, frames: 1, alpha: false),
        .init(file: "hopper.jpg", format: .jpeg, width: 128, height: 128, frames: 1, alpha: false),
        .init(file: "hopper.png", format: .png, width: 128, height: 128, frames: 1, alpha: false),
        .init(file: "hopper.webp", format: .webp, width: 128, height: 128, frames: 1, alpha: false),
        .init(file: "iss634.gif", format: .gif, width: 245, height: 245, frames: 42, alpha: true),
        .init(file: "iss634.webp", format: .webp, width: 245, height: 245, frames: 42, alpha: true),
        .init(file: "photoshop-200dpi-broken.jpg", format: .jpeg, width: 200, height: 200, frames: 1, alpha: false),
        .init(file: "pil123rgba.png", format: .png, width: 162, height: 150, frames: 1, alpha: true),
        .init(file: "test.colors.gif", format: .gif, width: 807, height: 606, frames: 1, alpha: false),
        .init(file: "transparent.png", format: .png, width: 200, height: 150, frames: 1, alpha: true),
        .init(file: "transparent.webp", format: .webp, width: 200, height: 150, frames: 1, alpha: true),
    ]

    /// Broken files and bombs, with the kinds of error each may give.
    static let refused: [(file: String, kinds: [ImageCodecError.Kind])] = [
        ("broken.png", [.corrupt]),
        ("broken_data_stream.png", [.corrupt]),
        ("decompression_bomb.gif", [.limitExceeded, .truncated]),
        ("decompression_bomb_extents.gif", [.limitExceeded]),
        ("png_decompression_dos.png", [.limitExceeded]),
    ]

    @Test func everyEdgeFileIsCovered() throws {
        let listed = Set(Self.decodable.map(\.file) + Self.refused.map(\.file))
        let present = Set(try Corpus.files(in: "edge", extensions: ["png", "gif", "jpg", "webp"]))
        #expect(listed == present)
    }

    @Test(arguments: decodable)
    func decodesAndMatchesTheFile(_ expected: Expectation) throws {
        let data = try Corpus.data("edge/\(expected.file)")
        let info = try ImageInfo(data)
        #expect(info.format == expected.format)
        #expect(info.width == expected.width && info.height == expected.height)
        #expect(info.frames == expected.frames)
        #expect(info.alpha == expected.alpha)
        let decoded = try ImageDecoder().decode(data)
        #expect(decoded.frameCount == expected.frames)
        #expect(decoded.firstFrame.width == expected.width && decoded.firstFrame.height == expected.height)
    }

    @Test(arguments: refused.map(\.file))
    func brokenFilesFailWithATypedError(_ file: String) throws {
        let data = try Corpus.data("edge/\(file)")
        let kinds = Self.refused.first { $0.file == file }!.kinds
        let error = try #require(throws: ImageCodecError.self) { try ImageDecoder().decode(data) }
        #expect(kinds.contains(error.kind), "\(file): \(error.kind): \(error.message)")
        #expect(!error.message.isEmpty)
    }
}
