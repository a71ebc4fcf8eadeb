import Foundation
import TestTraits
import Testing
import WebPBridge

/// HEIC is an ISO-BMFF `ftyp` box naming an HEVC brand of HEIF as its major
/// or a compatible brand (the image/heic and image/heic-sequence
/// registrations); AVIF shares the container, not the brands.
@Suite(.timeLimit(.suiteBound))
struct HEICSniffingTests {
    /// An `ftyp` box of `major`, minor version 0 and `compatible` brands (its size in 32 bits),
    /// then `tail`.
    static func ftyp(_ major: String, _ compatible: [String], _ tail: Data) -> Data {
        let size = UInt32(16 + 4 * compatible.count)
        var box = Data([UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        box += Data("ftyp\(major)".utf8) + Data([0, 0, 0, 0])
        box += Data(compatible.joined().utf8)
        return box + tail
    }

    @Test(arguments: [
        // What an iPhone camera writes: major heic, compatible mif1 and heic.
        ("heic", ["mif1", "heic"]), ("heix", ["mif1", "heix"]), ("mif1", ["heic"]), ("mif1", ["miaf", "heix"]),
        ("heim", []), ("heis", []),
        // Image sequences (image/heic-sequence).
        ("hevc", ["msf1"]), ("msf1", ["hevc"]), ("hevx", []), ("msf1", ["iso8", "hevx"]), ("hevm", []), ("hevs", []),
    ])
    func hevcBrandsAreHEIC(major: String, compatible: [String]) {
        #expect(ImageFormat.sniffIfImage(Self.ftyp(major, compatible, Data(repeating: 0, count: 16))) == .heic)
    }

    @Test(arguments: [
        // The structural brands alone: any codec may fill them (JPEG, AV1, …).
        ("mif1", ["miaf"]), ("msf1", ["iso8"]), ("mif1", []),
        // MP4 and QuickTime video.
        ("isom", ["iso2", "mp41"]), ("qt  ", []),
    ])
    func otherISOBMFFFilesAreNotHEIC(major: String, compatible: [String]) {
        #expect(ImageFormat.sniffIfImage(Self.ftyp(major, compatible, Data(repeating: 0, count: 16))) == nil)
    }

    @Test func heicIsNotAVIFAndAVIFIsNotHEIC() {
        #expect(ImageFormat.sniffIfImage(Self.ftyp("heic", ["mif1", "heic"], Data(count: 16))) == .heic)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("avif", ["mif1", "miaf"], Data(count: 16))) == .avif)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("avis", ["msf1", "avif"], Data(count: 16))) == .avif)
        // A file naming both: AVIF's brands are tested first.
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", ["heic", "avif"], Data(count: 16))) == .avif)
        // A HEIC brand past the declared end of the box is not read.
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", ["miaf"], Data("heic".utf8))) == nil)
    }

    @Test func shortOrBrokenBoxesAreNotHEIC() {
        let whole = Self.ftyp("heic", [], Data(count: 16))
        for length in 0..<12 {
            #expect(ImageFormat.sniffIfImage(whole.prefix(length)) == nil, "\(length) bytes")
        }
        var tooSmall = whole
        tooSmall[3] = 8
        #expect(ImageFormat.sniffIfImage(tooSmall) == nil)
    }

    /// A flood: an `ftyp` box of 25,000 compatible brands (100 KB) is read to its declared end and
    /// no further; its last brand counts, a brand just past it does not.
    @Test func aLongBrandListIsReadToItsEndOnly() {
        let brands = [String](repeating: "isom", count: 24_999)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", brands + ["heic"], Data(count: 16))) == .heic)
        #expect(ImageFormat.sniffIfImage(Self.ftyp("mif1", brands, Data("heic".utf8))) == nil)
    }

    @Test func onlySequenceBrandsMayBeAnimated() {
        #expect(!ImageFormat.mayBeAnimated(Self.ftyp("heic", ["mif1", "heic"], Data(count: 16)), format: .heic))
        #expect(ImageFormat.mayBeAnimated(Self.ftyp("msf1", ["hevc"], Data(count: 16)), format: .heic))
        #expect(ImageFormat.mayBeAnimated(Self.ftyp("hevx", [], Data(count: 16)), format: .heic))
    }

    @Test func mimeTypeExtensionAndName() {
        #expect(ImageFormat.heic.mimeType == "image/heic")
        #expect(ImageFormat.heic.fileExtension == "heic")
        #expect(ImageFormat.heic.description == "HEIC")
        #expect(ImageFormat(rawValue: "heic") == .heic)
    }
}
