import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// HEIC is sniffed on Linux like everywhere, and every decoding entry point
/// answers `.unsupported` with a message that says why (no HEVC decoder
/// here; ImageIO decodes it on Apple platforms).
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct HEICUnsupportedTests {
    /// An iPhone-style `ftyp` (major heic, compatible mif1 and heic) and some bytes.
    static let heic = AVIFSniffingFixture.ftyp("heic", ["mif1", "heic"]) + Data(repeating: 0, count: 64)

    static func expectUnsupported(_ body: () throws -> Void) {
        do {
            try body()
            Issue.record("HEIC decoded on Linux")
        } catch let error as ImageCodecError {
            #expect(error.kind == .unsupported, "\(error)")
            #expect(error.format == .heic)
            #expect(error.message.contains("HEIC") && error.message.contains("ImageIO"), "\(error)")
        } catch {
            Issue.record("not an ImageCodecError: \(error)")
        }
    }

    @Test func theCodecDoesNotOfferHEIC() throws {
        #expect(try ImageFormat.sniff(Self.heic) == .heic)
        #expect(!CImageCodec().decodableFormats.contains(.heic))
        #expect(CImageCodec().decodableFormats == Set(ImageFormat.allCases).subtracting([.heic]))
    }

    @Test func everyDecodingEntryPointSaysUnsupported() {
        Self.expectUnsupported { _ = try ImageDecoder().decode(Self.heic) }
        Self.expectUnsupported { _ = try ImageDecoder().decodeStill(Self.heic, fittingWidth: 100, height: 100) }
        Self.expectUnsupported { _ = try CImageCodec().decode(Self.heic, format: .heic, limits: .default) }
        Self.expectUnsupported { _ = try ImageInfo(Self.heic) }
        Self.expectUnsupported { _ = try AnimationReader(Self.heic) }
    }
}

/// The `ftyp` box builder of WebPBridgeTests' sniffing tests (a test target cannot import another).
enum AVIFSniffingFixture {
    static func ftyp(_ major: String, _ compatible: [String]) -> Data {
        let size = 16 + 4 * compatible.count
        var box = Data([0, 0, UInt8(size >> 8), UInt8(size & 0xFF)]) + Data("ftyp\(major)".utf8) + Data([0, 0, 0, 0])
        for brand in compatible { box += Data(brand.utf8) }
        return box
    }
}
