import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The origin's WebP variants of the Kodak photos published as JPEG q90:
/// really smaller, and still looking the same.
@Suite(
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)), .timeLimit(.suiteBound),
    .offTheGlobalExecutor)
struct OriginQualityTests {
    @Test func webPVariantsSaveAThirdAtMeanSSIMAbove095() async throws {
        let folder = try TemporaryDirectory(prefix: "kodak-jpeg")
        for name in Corpus.kodakNames {
            let photo = try PNGDecoder().decode(Corpus.data("kodak/\(name)"))
            try JPEGEncoder(options: .init(quality: 90)).encode(photo)
                .write(to: folder.file(name.replacingOccurrences(of: ".png", with: ".jpg")))
        }
        let origin = try ImageOrigin(configuration: .init(root: folder.url.path))
        var sourceBytes = 0
        var variantBytes = 0
        var scores: [Double] = []
        for name in Corpus.kodakNames {
            let file = name.replacingOccurrences(of: ".png", with: ".jpg")
            let source = try Data(contentsOf: folder.file(file))
            let response = await origin.handle(HTTPRequest(target: "/\(file)?imageView2/0/format/webp"))
            guard case .bytes(let body) = response.body else {
                Issue.record("\(file): no variant body (\(response.status))")
                continue
            }
            let variant = body.data
            #expect(try ImageFormat.sniff(variant) == .webp)
            sourceBytes += source.count
            variantBytes += variant.count
            scores.append(try SSIM.luma(JPEGDecoder().decode(source), WebPDecoder().decode(variant)))
        }
        let saved = 1 - Double(variantBytes) / Double(sourceBytes)
        let meanSSIM = scores.reduce(0, +) / Double(scores.count)
        print(
            "origin default WebP quality \(ImageTransformer.Configuration().defaultWebPQuality): "
                + "\(sourceBytes) → \(variantBytes) bytes, saved \(String(format: "%.1f", saved * 100))%, "
                + "mean SSIM \(String(format: "%.4f", meanSSIM)), min \(String(format: "%.4f", scores.min() ?? 0))")
        #expect(scores.count == 24)
        #expect(saved >= 0.30)
        #expect(meanSSIM >= 0.95)
    }
}
