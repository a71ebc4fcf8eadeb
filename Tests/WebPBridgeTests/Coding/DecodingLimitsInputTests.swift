import Foundation
import TestTraits
import Testing
import WebPBridge

/// The checks every codec makes before decoding
/// (``DecodingLimits/checkInput(_:format:)``, called by the Linux JPEG
/// decoder and by ImageIOCodec): the byte limit, and a JPEG's scans.
@Suite(.timeLimit(.suiteBound))
struct DecodingLimitsInputTests {
    /// SOI, `scans` minimal scans (SOS header and one byte of entropy-coded data), EOI.
    static func jpeg(scans: Int) -> Data {
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0, 0x12]
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes.reserveCapacity(2 + scan.count * scans + 2)
        for _ in 0..<scans { bytes += scan }
        return Data(bytes + [0xFF, 0xD9])
    }

    @Test func aJPEGOverTheScanLimitIsRefused() throws {
        let limits = DecodingLimits(maxScans: 500)
        try limits.checkInput(Self.jpeg(scans: 500), format: .jpeg)
        let error = try #require(
            thrownCodecError {
                try limits.checkInput(Self.jpeg(scans: 501), format: .jpeg)
            })
        #expect(error.kind == .limitExceeded && error.format == .jpeg, "\(error)")
        #expect(error.message.contains("500 scans"), "\(error)")
    }

    /// A flood: 200,000 scans (2.2 MB); the count stops past the limit.
    @Test func aFloodOfScansIsRefusedByTheDefaultLimits() throws {
        let flood = Self.jpeg(scans: 200_000)
        let error = try #require(
            thrownCodecError {
                try DecodingLimits.default.checkInput(flood, format: .jpeg)
            })
        #expect(error.kind == .limitExceeded, "\(error)")
    }

    @Test func onlyJPEGsHaveTheirScansCounted() throws {
        try DecodingLimits(maxScans: 1).checkInput(Self.jpeg(scans: 5), format: .png)
    }

    @Test func theByteLimitComesFirst() throws {
        let error = try #require(
            thrownCodecError {
                try DecodingLimits(maxInputBytes: 100).checkInput(Self.jpeg(scans: 50), format: .jpeg)
            })
        #expect(error.kind == .limitExceeded && error.message.contains("bytes"), "\(error)")
    }
}
