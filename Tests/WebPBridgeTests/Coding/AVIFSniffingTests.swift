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
        // HEIC and MP4 share the container, not the brands.
        #expect(ImageFormat.sniffIfImage(Self.ftyp("heic", ["mif1", "heic"])) == nil)
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
