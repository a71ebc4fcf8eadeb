import TestTraits
import Testing

@testable import WebPBridge

/// ``AcceptHeader`` parsed: ranges, qualities and the most specific match.
@Suite(.timeLimit(.suiteBound))
struct AcceptQualityTests {
    @Test func rangesAreListedInOrderLowerCased() {
        let accept = AcceptHeader("Image/AVIF, image/webp;q=0.8 ,image/*;level=1;q=0.5, */*;q=0.1")
        #expect(
            accept.ranges == [
                .init(mediaType: "image/avif", quality: 1), .init(mediaType: "image/webp", quality: 0.8),
                .init(mediaType: "image/*", quality: 0.5), .init(mediaType: "*/*", quality: 0.1),
            ])
    }

    @Test(arguments: [
        ("image/avif", 1.0), ("IMAGE/AVIF", 1), ("image/webp", 0.8), ("image/png", 0.5), ("text/html", 0.1),
    ])
    func theMostSpecificRangeWins(mediaType: String, quality: Double) {
        let accept = AcceptHeader("*/*;q=0.1, image/*;q=0.5, image/webp;q=0.8, image/avif")
        #expect(accept.quality(of: mediaType) == quality)
    }

    @Test func aTypeNoRangeMatchesIsRefused() {
        #expect(AcceptHeader("image/png").quality(of: "image/avif") == 0)
        #expect(AcceptHeader("image/avif;q=0, image/*").quality(of: "image/avif") == 0, "explicit q=0 wins")
    }

    @Test func noHeaderAcceptsAnything() {
        #expect(AcceptHeader(nil).quality(of: "image/avif") == 1)
        #expect(AcceptHeader("").quality(of: "image/avif") == 1)
        #expect(AcceptHeader(" , ,").ranges.isEmpty)
    }

    @Test func explicitQualityIgnoresWildcards() {
        let accept = AcceptHeader("image/*, */*, image/webp;q=0, image/webp;q=0.3")
        #expect(accept.explicitQuality(of: "image/avif") == nil)
        #expect(accept.explicitQuality(of: "image/webp") == 0.3, "the highest of repeated ranges")
    }

    @Test(
        arguments: [
            ("1", 1.0), ("1.000", 1), ("0.5", 0.5), (".5", 0.5), ("0", 0), ("0.001", 0.001), ("Q=0.5", 0.5),
            ("", 0), ("-1", 0), ("2", 0), ("1.5", 0), ("inf", 0), ("nan", 0), ("1e0", 0), ("\"0.5\"", 0), ("0..5", 0),
            (String(repeating: "9", count: 400), 0),
            ("0." + String(repeating: "1", count: 400), 0.111_111_111_111_111_1),
        ] as [(String, Double)])
    func aMalformedQualityIsZero(value: String, quality: Double) throws {
        let header = value.hasPrefix("Q=") ? "image/avif;" + value : "image/avif;q=" + value
        let parsed = try #require(AcceptHeader(header).ranges.first)
        #expect(abs(parsed.quality - quality) < 1e-12, "\(value)")
    }

    @Test func tenThousandRangesAreReadInOnePass() {
        // Quadratic work would show here as a time-limit failure: 100,000 ranges, the answer in the last one.
        let ranges = (0..<100_000).map { "image/x-\($0);q=0.5" }.joined(separator: ",")
        let accept = AcceptHeader(ranges + ", image/avif;q=0.7")
        #expect(accept.ranges.count == 100_001)
        #expect(accept.quality(of: "image/avif") == 0.7)
        #expect(AcceptHeader.acceptsWebP(ranges + ",image/webp"))
        #expect(!AcceptHeader.acceptsWebP(ranges))
        #expect(AcceptHeader.refusingWebP(ranges + ",image/webp").hasSuffix("image/x-99999;q=0.5, image/webp;q=0"))
    }

    @Test(arguments: ["image/webp\u{0}", "ímage/webp", "image/webp\r\nX: y", ";;;", ",;q=1", "image/webp;;q"])
    func oddBytesDoNotCrash(header: String) {
        _ = AcceptHeader(header)
        _ = AcceptHeader.refusingWebP(header)
        #expect(AcceptHeader.acceptsWebP(header) == (header == "image/webp;;q"))
    }
}
