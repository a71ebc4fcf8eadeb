import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// The mobile animation budget (``DecodingLimits/mobile``: 50 megapixels
/// summed over the frames, 200 MB of RGBA) refuses an animation from its
/// header, before any frame is allocated.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct MobileAnimationBudgetTests {
    /// A 1000×1000 APNG whose acTL promises 60 frames (240 MB decoded) in 110 bytes.
    @Test func aTinyFilePromisingTwoHundredFortyMegabytesIsRefused() throws {
        let frame = PNGFixture.Frame(x: 0, y: 0, width: 1, height: 1, rgba: [255, 0, 0, 255])
        let data = Data(PNGFixture.apng(width: 1000, height: 1000, frames: [frame], declaredFrameCount: 60))
        #expect(data.count < 200)
        let error = try #require(throws: ImageCodecError.self) {
            _ = try ImageDecoder(limits: .mobile).decode(data)
        }
        #expect(error.kind == .limitExceeded, "\(error)")
        #expect(error.message.contains("60 frames at 1000x1000"), "\(error)")
    }
}
