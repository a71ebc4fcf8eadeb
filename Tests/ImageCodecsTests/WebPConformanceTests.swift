import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// libwebp's conformance vectors: our decoder must reproduce every one of the
/// reference decoder's 258 output sums (PAM and PPM).
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct WebPConformanceTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var file: String
        var format: String  // "pam" or "ppm"
        var md5: String
        var testDescription: String { "\(file).\(format)" }
    }

    static let vectors: [Vector] = {
        guard let text = try? String(contentsOf: Corpus.url("webp-conformance/libwebp_tests.md5"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { return nil }
            let name = String(parts[1])
            let format = (name as NSString).pathExtension
            return Vector(file: (name as NSString).deletingPathExtension, format: format, md5: String(parts[0]))
        }
    }()

    @Test func allReferenceSumsAreListed() {
        #expect(Self.vectors.count == 258)
    }

    @Test(arguments: vectors)
    func decodesBitExactly(_ vector: Vector) throws {
        let data = try Corpus.data("webp-conformance/\(vector.file)")
        let image = try WebPDecoder().decode(data)
        let output = vector.format == "pam" ? PNMEncoder.pam(image) : PNMEncoder.ppm(image)
        #expect(MD5.hexDigest(output) == vector.md5)
    }
}
