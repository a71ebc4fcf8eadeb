import TestTraits
import Testing
import WebPBridge

/// Hostile input for the parser: random strings of URL delimiters, escapes,
/// controls and non-ASCII, with and without a base. It must not crash, and
/// what it serialises must parse back to itself.
@Suite(.timeLimit(.suiteBound)) struct WHATWGURLPropertyTests {
    static let pieces = [
        "http:", "https:", "HTTP:", "file:", "sc:", "mailto:", "//", "/", "\\", "\\\\", "?", "#", "@", ":", "[", "]",
        "::1", "1.2.3.4", "0x7f", "255", "4294967296", ".", "..", "%2e", "%2E%2e", "%", "%4", "%GH", "%41", "%00",
        "xn--", "xn--fiqs8s", "xn--a-", "a", "B", "img", "example.com", "8080", "65536", "999999", "\t", "\n", " ",
        "\u{0}", "\u{7F}", "é", "中", "\u{FFFD}", "'", "\"", "<", ">", "^", "|", "{", "}", "`", "C|", "c:",
    ]
    static let bases: [WHATWGURL?] = [
        nil, try? WHATWGURL("http://example.org/foo/bar"), try? WHATWGURL("file:///C:/x"),
        try? WHATWGURL("sc://host/a/b"), try? WHATWGURL("about:blank"),
    ]

    @Test func randomInputsNeverCrashAndSerialiseToAFixedPoint() {
        var generator = SeededGenerator(seed: 26)
        var parsed = 0
        for _ in 0..<20_000 {
            var input = ""
            for _ in 0..<(1 + generator.below(12)) { input += generator.pick(Self.pieces) }
            let base = generator.pick(Self.bases)
            guard let url = try? WHATWGURL(input, relativeTo: base) else { continue }
            parsed += 1
            let again = try? WHATWGURL(url.href)
            #expect(again?.href == url.href, "\(input.debugDescription) → \(url.href.debugDescription)")
        }
        #expect(parsed > 2_000)
    }

    @Test func longInputsAreBounded() {
        let long = "http://a/" + String(repeating: "%", count: WHATWGURL.maxInputBytes)
        #expect(throws: URLParseError.tooLong) { try WHATWGURL(long) }
        let deep = "http://a/" + String(repeating: "../", count: 100_000) + "a.jpg"
        #expect((try? WHATWGURL(deep))?.href == "http://a/a.jpg")
    }
}
