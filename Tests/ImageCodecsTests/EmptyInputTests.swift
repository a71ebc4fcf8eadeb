import Foundation
import TestTraits
import Testing
import WebPBridge

/// Zero bytes have no address to hand to a C library: every public WebP
/// entry point answers them with a typed error, never a crash.
@Suite(.timeLimit(.suiteBound))
struct EmptyInputTests {
    /// An empty `Data`, and an empty slice of a non-empty one (whose
    /// indices do not start at 0).
    static let empties: [Data] = [Data(), Data([0x52, 0x49, 0x46, 0x46])[4...]]

    @Test(arguments: empties) func featuresOfNothing(_ data: Data) {
        #expect(throws: ImageCodecError.self) { try WebPFeatures(data) }
    }

    @Test(arguments: empties) func decodeOfNothing(_ data: Data) {
        #expect(throws: ImageCodecError.self) { try WebPDecoder().decode(data) }
        #expect(throws: ImageCodecError.self) { try WebPDecoder().decodeAny(data) }
        #expect(throws: ImageCodecError.self) { try WebPDecoder().decode(data, fittingWidth: 10, height: 10) }
    }

    @Test(arguments: empties) func animationOfNothing(_ data: Data) {
        #expect(throws: ImageCodecError.self) { try WebPDecoder().animationInfo(data) }
        #expect(throws: ImageCodecError.self) { try WebPDecoder().decodeAnimation(data) }
    }

    @Test(arguments: empties) func incrementalDecodeOfNothing(_ data: Data) throws {
        let decoder = WebPIncrementalDecoder()
        _ = try decoder.append(data)
        #expect(decoder.partialImage() == nil)
        #expect(throws: ImageCodecError.self) { try decoder.finish() }
    }
}
