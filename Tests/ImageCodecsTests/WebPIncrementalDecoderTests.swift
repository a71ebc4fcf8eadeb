import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WebPIncrementalDecoderTests {
    @Test(arguments: [1, 7, 256, 4096])
    func chunkedDecodeEqualsWholeDecode(chunkSize: Int) throws {
        let data = try WebPEncoder().encode(SyntheticImages.photo(width: 160, height: 120))
        let decoder = WebPIncrementalDecoder()
        var progress: [WebPIncrementalDecoder.Progress] = []
        var offset = 0
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            progress.append(try decoder.append(data[offset..<end]))
            offset = end
        }
        #expect(progress.last == .complete)
        #expect(try decoder.finish() == WebPDecoder().decode(data))
    }

    @Test func reportsRowsWhileDataArrivesAndShowsAPartialImage() throws {
        // A large, detailed image so that rows become available before the end.
        let data = try WebPEncoder(options: .init(quality: 95)).encode(SyntheticImages.photo(width: 512, height: 512))
        let decoder = WebPIncrementalDecoder()
        #expect(try decoder.append(data.prefix(10)) == .waitingForHeaders)
        let progress = try decoder.append(data[10..<(data.count * 3 / 4)])
        guard case .decoding(let rows, let height) = progress else {
            Issue.record("expected partial progress, got \(progress)")
            return
        }
        #expect(height == 512)
        #expect(rows > 0 && rows < 512)
        let partial = try #require(decoder.partialImage())
        #expect(partial.width == 512 && partial.height == 512)
        #expect(throws: ImageCodecError.self) { try decoder.finish() }
        #expect(try decoder.append(data[(data.count * 3 / 4)...]) == .complete)
        #expect(try decoder.finish().isOpaque)
    }

    @Test func rejectsNonWebPAndOversizedHeadersEarly() throws {
        let notWebP = WebPIncrementalDecoder()
        #expect(throws: ImageCodecError.self) { try notWebP.append(Data(repeating: 0x41, count: 64)) }

        let data = try WebPEncoder().encode(SyntheticImages.photo(width: 300, height: 300))
        let limited = WebPIncrementalDecoder(limits: DecodingLimits(maxPixelsPerFrame: 1_000))
        let error = try #require(throws: ImageCodecError.self) { try limited.append(data.prefix(64)) }
        #expect(error.kind == .limitExceeded)
    }
}
