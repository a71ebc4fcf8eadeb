import Foundation
import TestTraits
import Testing
import WebPBridge

/// The defaults that differ between an app on a phone and a server
/// (issue 28): the animation budget and the decoding concurrency, each a
/// function of ``PlatformKind`` so that every row is checked here.
@Suite(.timeLimit(.suiteBound))
struct PlatformDefaultsTests {
    @Test func theMobileBudgetHoldsAnAnimationInTwoHundredMegabytes() throws {
        let mobile = DecodingLimits.mobile
        #expect(mobile.maxTotalPixels * 4 <= 200_000_000)
        // Only the animation budget differs from the server's defaults.
        var server = DecodingLimits()
        server.maxTotalPixels = mobile.maxTotalPixels
        #expect(server == mobile)
        // The examples in its documentation fit; one frame more does not.
        try mobile.checkAnimation(width: 480, height: 270, frames: 385, format: .gif)
        try mobile.checkAnimation(width: 707, height: 707, frames: 100, format: .webp)
        let error = try #require(
            thrownCodecError {
                try mobile.checkAnimation(width: 707, height: 707, frames: 101, format: .webp)
            })
        #expect(error.kind == .limitExceeded && error.message.contains("50,000,000 pixels in all"), "\(error)")
        // The server's default takes it.
        try DecodingLimits().checkAnimation(width: 707, height: 707, frames: 101, format: .webp)
    }

    @Test(arguments: PlatformKind.allCases)
    func theDefaultLimitsPerPlatform(_ platform: PlatformKind) {
        let limits = DecodingLimits.platformDefault(isMobile: platform.isMobile)
        let expected = [PlatformKind.iOS, .tvOS, .watchOS, .visionOS].contains(platform) ? 50_000_000 : 1_000_000_000
        #expect(limits.maxTotalPixels == expected)
    }

    @Test func thisPlatformsDefaults() {
        #expect(DecodingLimits.default == DecodingLimits.platformDefault(isMobile: PlatformKind.current.isMobile))
        #if os(Linux)
            #expect(PlatformKind.current == .server)
            #expect(DecodingLimits.default == DecodingLimits())
            #expect(DecodingConcurrency.default == ProcessInfo.processInfo.activeProcessorCount)
        #endif
    }

    @Test(arguments: [
        (PlatformKind.iOS, 6, 1), (.iOS, 2, 1), (.tvOS, 4, 1), (.watchOS, 2, 1), (.visionOS, 8, 1),
        (.macOS, 10, 2), (.macOS, 2, 2), (.macOS, 1, 1), (.server, 2, 2), (.server, 64, 64), (.server, 0, 1),
    ])
    func decodingConcurrency(platform: PlatformKind, cores: Int, decodes: Int) {
        #expect(DecodingConcurrency.recommended(for: platform, cores: cores) == decodes)
    }
}
