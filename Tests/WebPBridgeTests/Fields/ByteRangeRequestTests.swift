import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct ByteRangeRequestTests {
    /// RFC 9110 §14.1.2's forms over a 1,000-byte representation.
    @Test(arguments: [
        ("bytes=0-99", ByteRangeRequest.Resolution.range(0...99)),
        ("bytes=0-0", .range(0...0)),
        ("bytes=500-", .range(500...999)),
        ("bytes=900-2000", .range(900...999)),
        ("bytes=-100", .range(900...999)),
        ("bytes=-5000", .range(0...999)),
        ("Bytes=0-9", .range(0...9)),
        ("bytes= 10-19 ", .range(10...19)),
        ("bytes=999-999", .range(999...999)),
        ("bytes=0-99999999999999999999999", .range(0...999)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=1000-1001", .unsatisfiable),
        ("bytes=99999999999999999999999-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        // Several ranges: the whole representation, by choice.
        ("bytes=0-9,20-29", .whole),
        ("bytes=0-9, 2000-", .whole),
        // Not a byte range the server understands: ignored.
        ("bytes=9-0", .whole), ("bytes=a-b", .whole), ("bytes=-", .whole), ("bytes=", .whole), ("bytes", .whole),
        ("items=0-9", .whole), ("bytes=0x10-", .whole), ("bytes=+1-2", .whole), ("bytes=1--2", .whole), ("", .whole),
    ])
    func resolvesAgainstTheLength(field: String, expected: ByteRangeRequest.Resolution) {
        #expect(ByteRangeRequest.resolve(field, length: 1_000) == expected, "\(field)")
    }

    @Test func anEmptyRepresentationHasNoByteToSend() {
        #expect(ByteRangeRequest.resolve("bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRangeRequest.resolve("bytes=-10", length: 0) == .unsatisfiable)
        #expect(ByteRangeRequest.resolve("bytes=0-9,10-19", length: 0) == .whole)
    }
}
