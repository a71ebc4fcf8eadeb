import Foundation
import TestTraits
import Testing
import WebPBridge

/// AVIF is an ISO-BMFF `ftyp` box naming `avif` or `avis` as its major or a
/// compatible brand (https://aomediacodec.github.io/av1-avif/#brands-overview).
@Suite(.timeLimit(.suiteBound))
struct AVIFSniffingTests {
    /// An `ftyp` box of `major`, minor version 0 and `compatible` brands, then `tail`.
    static func ftyp(_ major: String, _ compatible: [String], tail: Data = Data(repeating: 0, count: 16)) -> Data {
        let size = 16 + 4 * compatible.count
        var box = Data([0, 0, UInt8(size >> 8), UInt8(size & 0xFF)]) + Data("ftyp\(major)".utf8) + Data([0, 0, 0, 0])
        for brand in compatible { box += Data(brand.utf8) }
        return box + tail
    }

    @Test func majorOrCompatibleBrandIsAVIF() {
        #expect(ImageFormat.sniffIfImage(Self.ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("avis", ["msf1"])) == .avif)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", ["miaf", "avif"])) == .avif)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("msf1", ["avis"])) == .avif)
    }

    @Test func otherISOBMFFFilesAreNotAVIF() {
        // HEIC and MP4 share the container, not the brands (HEICSniffingTests).
        #expect(ImageFormat.sniffIfImage(Self.ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("isom", ["iso2", "mp41"])) == nil)
        // A brand past the box's declared end does not count.
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", ["miaf"], tail: Data("avif".utf8))) == nil)
    }

    @Test func shortOrBrokenBoxesAreNotAVIF() {
        let whole = Self.ftyp("avif", [])
        for length in 0..<12 {
            #expect(ImageFormat.sniffIfImage(whole.prefix(length)) == nil, "\(length) bytes")
        }
        var tooSmall = whole
        tooSmall[3] = 8
        #expect(ImageFormat.sniffIfImage(tooSmall) == nil)
        // Compatible brands cut short by the data's end are read as far as they go.
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", ["avif"], tail: Data()).prefix(18)) == nil)
    }

    @Test func mimeTypeAndExtension() throws {
        #expect(ImageFormat.avif.mimeType == "image/avif")
        #expect(ImageFormat.avif.fileExtension == "avif")
        #expect(ImageFormat.avif.description == "AVIF")
        #expect(StillEncoding.avif(quality: 60, speed: 6).format == .avif)
        // Not `let error = #expect(throws:)`: that returns the error only from Swift 6.1 (Xcode 16.3).
        do {
            let format = try ImageFormat.sniff(Data("hello, world".utf8))
            Issue.record("plain text sniffed as \(format)")
        } catch {
            #expect(error.message.contains("AVIF"))
        }
    }
}

/// Which headers say "more than one frame may follow" (a scaled decode
/// keeps those whole).
@Suite(.timeLimit(.suiteBound))
struct AnimationSniffingTests {
    /// A WebP `RIFF` header whose first chunk is `VP8X` with `flags`.
    static func extendedWebP(flags: UInt8) -> Data {
        Data("RIFF".utf8) + Data([30, 0, 0, 0]) + Data("WEBPVP8X".utf8) + Data([10, 0, 0, 0, flags])
            + Data(repeating: 0, count: 9)
    }

    @Test func theWebPAnimationFlagAndTheAVIFSequenceBrandAreRead() {
        #expect(ImageFormat.mayBeAnimated(Self.extendedWebP(flags: 0x02), format: .webp))
        #expect(ImageFormat.mayBeAnimated(Self.extendedWebP(flags: 0x12), format: .webp))
        #expect(!ImageFormat.mayBeAnimated(Self.extendedWebP(flags: 0x10), format: .webp), "alpha only")
        let simple = Data("RIFF".utf8) + Data([30, 0, 0, 0]) + Data("WEBPVP8 ".utf8) + Data(repeating: 0xFF, count: 18)
        #expect(!ImageFormat.mayBeAnimated(simple, format: .webp), "a VP8 chunk is a still")
        #expect(!ImageFormat.mayBeAnimated(Self.extendedWebP(flags: 0x02).prefix(20), format: .webp), "truncated")
        #expect(ImageFormat.mayBeAnimated(AVIFSniffingTests.ftyp("avis", ["msf1"]), format: .avif))
        #expect(ImageFormat.mayBeAnimated(AVIFSniffingTests.ftyp("msf1", ["avis"]), format: .avif))
        #expect(!ImageFormat.mayBeAnimated(AVIFSniffingTests.ftyp("avif", ["mif1"]), format: .avif))
    }

    @Test(arguments: [(ImageFormat.gif, true), (.apng, true), (.jpeg, false), (.png, false)])
    func theFormatAloneDecidesForTheOthers(format: ImageFormat, animated: Bool) {
        #expect(ImageFormat.mayBeAnimated(Data(repeating: 0, count: 32), format: format) == animated)
    }
}
