import Foundation
import TestSupport
import TestTraits
import Testing

/// The test-only MD5 must itself be right before it judges the decoder.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct MD5Tests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("The quick brown fox jumps over the lazy dog", "9e107d9d372bb6826bd81d3542a419d6"),
        (String(repeating: "a", count: 1000), "cabe45dcc9ae5b66ba86600cca6b8ba8"),
    ])
    func matchesKnownDigests(input: String, expected: String) {
        #expect(MD5.hexDigest(Data(input.utf8)) == expected)
    }
}
