import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// Progressive JPEGs whose scans multiply the decoding work: the scans are
/// counted from the segment structure and a file over
/// ``DecodingLimits/maxScans`` is refused before decoding.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct JPEGScanLimitTests {
    /// A progressive JPEG of `scans` scans: a real one (10 scans) whose last
    /// scan, an AC refinement of luma, is repeated before EOI, as in the CPU
    /// bomb of issue 10 (libjpeg decodes every repeat, warning of a bogus progression).
    static func manyScanJPEG(scans: Int, size: Int = 256) throws -> Data {
        let image = SyntheticImages.photo(width: size, height: size)
        let bytes = [UInt8](try JPEGEncoder(options: .init(quality: 80, progressive: true)).encode(image))
        let end = bytes.count - 2
        #expect(bytes[end] == 0xFF && bytes[end + 1] == 0xD9)
        let lastScan = try #require((0..<end).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let scan = bytes[lastScan..<end]
        var output = Array(bytes[..<end])
        output.reserveCapacity(bytes.count + scan.count * scans)
        for _ in 0..<(scans - 10) { output.append(contentsOf: scan) }
        output.append(contentsOf: [0xFF, 0xD9])
        return Data(output)
    }

    @Test func fiveThousandScansAreRefusedBeforeDecoding() throws {
        let bomb = try Self.manyScanJPEG(scans: 5_000)
        let error = try #require(throws: ImageCodecError.self) { _ = try JPEGDecoder().decode(bomb) }
        #expect(error.kind == .limitExceeded, "\(error)")
        #expect(error.message.contains("500 scans"), "\(error)")
        // Every path that decodes a JPEG goes through JPEGDecoder: decodeStill with a box too.
        let scaled = try #require(throws: ImageCodecError.self) {
            _ = try ImageDecoder().decodeStill(bomb, fittingWidth: 64, height: 64)
        }
        #expect(scaled.kind == .limitExceeded)
    }

    @Test func scansAreCountedFromTheSegmentStructure() throws {
        let photo = SyntheticImages.photo(width: 200, height: 120)
        #expect(JPEGDecoder.scanCount(try JPEGEncoder().encode(photo)) == 1)
        #expect(JPEGDecoder.scanCount(try JPEGEncoder(options: .init(progressive: true)).encode(photo)) == 10)
        #expect(JPEGDecoder.scanCount(try Self.manyScanJPEG(scans: 777, size: 32)) == 777)
        #expect(JPEGDecoder.scanCount(Data([0xFF, 0xD8, 0xFF, 0xDA])) == 0)
        #expect(JPEGDecoder.scanCount(Data("not a jpeg".utf8)) == 0)
    }

    /// Entropy-coded data is skipped by its own rules: `FF 00` (a stuffed
    /// zero) and `FF D0`–`FF D7` (restart markers) stay inside the scan, and
    /// an `FF DA` pattern can only appear as a real marker.
    @Test func stuffedBytesAndRestartMarkersDoNotEndAScan() {
        let header: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0]
        let entropy: [UInt8] = [0x12, 0xFF, 0x00, 0xFF, 0xD0, 0x34, 0xFF, 0xFF, 0x00, 0xFF, 0xD7, 0x56]
        let secondScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0, 0x78]
        #expect(JPEGDecoder.scanCount(Data(header + entropy + secondScan + [0xFF, 0xD9])) == 2)
        #expect(JPEGDecoder.scanCount(Data(header + entropy + [0xFF, 0xD9] + secondScan)) == 1)
    }

    /// The search for the end of a scan steps over 32 bytes at a time: a
    /// stuffed zero, a restart marker, a fill byte or the next scan's marker
    /// at every offset across two strides is still found where it is.
    @Test func markersAreFoundAtEveryOffsetOfTheSearchStride() {
        let header: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0]
        let secondScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0, 0x78]
        for offset in 0..<70 {
            let data = [UInt8](repeating: 0x5A, count: offset)
            // The next scan right after `offset` bytes of entropy-coded data.
            #expect(JPEGDecoder.scanCount(Data(header + data + secondScan + [0xFF, 0xD9])) == 2, "offset \(offset)")
            // Markers that stay inside the scan, then `offset` more bytes, then the next scan.
            for inside: [UInt8] in [[0xFF, 0x00], [0xFF, 0xD3], [0xFF, 0xFF, 0x00]] {
                let entropy = data + inside + data
                #expect(
                    JPEGDecoder.scanCount(Data(header + entropy + secondScan + [0xFF, 0xD9])) == 2,
                    "offset \(offset), \(inside)")
            }
            // An end of image inside the stride ends the count there.
            #expect(JPEGDecoder.scanCount(Data(header + data + [0xFF, 0xD9] + secondScan)) == 1, "offset \(offset)")
        }
    }

    @Test func theBoundIsConfigurable() throws {
        let progressive = try JPEGEncoder(options: .init(progressive: true))
            .encode(SyntheticImages.photo(width: 64, height: 64))
        #expect(throws: ImageCodecError.self) { _ = try JPEGDecoder(limits: .init(maxScans: 9)).decode(progressive) }
        #expect(try JPEGDecoder(limits: .init(maxScans: 10)).decode(progressive).width == 64)
        #expect(DecodingLimits.default.maxScans == 500)
    }

    /// Linear work: counting 10× the scans costs about 10× the bytes walked,
    /// checked by counting rather than timing.
    @Test func countingStopsOnceTheBoundIsPassed() throws {
        let bomb = try Self.manyScanJPEG(scans: 2_000, size: 32)
        let counted = bomb.withUnsafeBytes { JPEGScanCounter.count($0, stoppingAbove: 500) }
        #expect(counted == 501)
    }
}
