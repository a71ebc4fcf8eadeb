import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeDemo

/// The demo's animated badge through the tuned origin's search.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct DemoAnimationTests {
    /// A graphic's mixed lossy-or-lossless frames are not always smaller at
    /// a lower quality: the badge's were 28 B bigger at q30 than at q80. So
    /// a search keeps them at the fixed quality, and the searched badge is
    /// no bigger than the fixed one.
    @Test func theSearchedBadgeIsNoBiggerThanAtTheFixedQuality() throws {
        let gif = try GIFEncoder().encode(DemoArtwork.liveBadge())
        let pipeline = ProcessingPipeline(
            steps: [.imageView2(ImageView2(mode: 2, width: 750, format: .webp))], ignoresErrors: false)
        var configuration = ImageTransformer.Configuration()
        configuration.qualityMode = .auto(target: DemoSiteOrigin.tunedTarget)
        let searched = try ImageTransformer(configuration: configuration).transform(gif, pipeline: pipeline)
        let fixed = try ImageTransformer().transform(gif, pipeline: pipeline)
        #expect(searched.format == .webp && fixed.format == .webp)
        #expect(searched.searchedQuality != nil)
        #expect(searched.data.count <= fixed.data.count, "\(searched.data.count) B against \(fixed.data.count) B")
    }
}
