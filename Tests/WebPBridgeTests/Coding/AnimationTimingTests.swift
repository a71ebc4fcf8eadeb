import TestTraits
import Testing
import WebPBridge

/// The one rule for an animation's delays and play count (issue 28), used
/// by the Linux GIF, APNG and WebP decoders and by ImageIOCodec.
@Suite(.timeLimit(.suiteBound))
struct AnimationTimingTests {
    @Test(arguments: [
        (-5, 100), (0, 100), (1, 100), (10, 100), (11, 11), (20, 20), (100, 100), (65_535, 65_535),
    ])
    func delaysOfTenMillisecondsOrLessShowForOneHundred(milliseconds: Int, shown: Int) {
        #expect(AnimationTiming.displayedDuration(milliseconds: milliseconds) == shown)
    }

    /// ImageIO reports delays in seconds; absent, not a number or huge are bounded.
    @Test(
        arguments: [
            (nil, 100), (0, 100), (0.01, 100), (0.0104, 100), (0.011, 11), (0.02, 20), (0.1, 100), (2.5, 2_500),
            (-3, 100), (.nan, 100), (.infinity, Int(Int32.max)), (1e300, Int(Int32.max)), (-.infinity, 100),
        ] as [(Double?, Int)])
    func delaysInSeconds(seconds: Double?, shown: Int) {
        #expect(AnimationTiming.displayedDuration(seconds: seconds) == shown)
    }

    @Test(
        arguments: [
            // GIF: the NETSCAPE2.0 value counts repeats after the first play; absent plays once.
            (ImageFormat.gif, nil, 1), (.gif, 0, 0), (.gif, 1, 2), (.gif, 65_535, 65_536), (.gif, 1_000_000, 65_536),
            (.gif, -1, 0),
            // APNG acTL num_plays, WebP ANIM loop count, HEICS: plays, 0 forever, absent forever.
            (.apng, 0, 0), (.apng, 3, 3), (.apng, nil, 0), (.webp, 0, 0), (.webp, 5, 5), (.webp, -2, 0),
            (.heic, 2, 2), (.heic, nil, 0),
            // Formats that do not animate.
            (.jpeg, 7, 0), (.png, 3, 0), (.avif, 4, 0),
        ] as [(ImageFormat, Int?, Int)])
    func playCountFromTheFilesLoopField(format: ImageFormat, declared: Int?, plays: Int) {
        #expect(AnimationTiming.playCount(format, declared: declared) == plays)
    }
}
