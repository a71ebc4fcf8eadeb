import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct AcceptHeaderTests {
    @Test(arguments: [
        ("image/webp,*/*", true),
        ("image/avif,image/webp,image/apng,image/*,*/*;q=0.8", true),
        ("IMAGE/WEBP;q=0.5", true),
        ("image/webp;q=0", false),
        ("image/webp; q=0.0", false),
        ("image/*", false),
        ("*/*", false),
        ("image/png,image/svg+xml,image/*;q=0.8", false),
        ("", false),
    ])
    func explicitWebPWithPositiveQualityOnly(accept: String, expected: Bool) {
        #expect(AcceptHeader.acceptsWebP(accept) == expected)
    }

    @Test(arguments: [
        ("image/avif,image/webp,image/apng,image/*,*/*;q=0.8", true),
        ("IMAGE/AVIF;q=0.5", true),
        ("image/webp, image/avif ; q=1", true),
        ("image/avif;q=0", false),
        ("image/avif;q=0,image/avif;q=0.2", true),
        ("image/avif;q=-1", false),
        ("image/avifs", false),
        ("image/*", false),
        ("*/*", false),
        ("image/webp", false),
        ("", false),
    ])
    func anExplicitTypeWithPositiveQualityOnly(accept: String, expected: Bool) {
        #expect(AcceptHeader.namesExplicitly("image/avif", in: accept) == expected)
        #expect(AcceptHeader.namesExplicitly("image/avif", in: nil) == false)
        // The WebP test is the same test for another type.
        #expect(AcceptHeader.acceptsWebP(accept) == AcceptHeader.namesExplicitly("image/webp", in: accept))
    }

    @Test func absentHeaderIsNoWebP() {
        #expect(!AcceptHeader.acceptsWebP(nil))
    }

    @Test(arguments: [
        (
            "image/avif,image/webp,image/apng,image/*,*/*;q=0.8",
            "image/avif, image/apng, image/*, */*;q=0.8, image/webp;q=0"
        ),
        ("IMAGE/WebP;q=0.9 , image/png", "image/png, image/webp;q=0"),
        ("image/png,image/*;q=0.8", "image/png, image/*;q=0.8, image/webp;q=0"),
        ("image/webp", "*/*, image/webp;q=0"),
        ("", "*/*, image/webp;q=0"),
    ])
    func refusingWebPKeepsTheOtherTypes(accept: String, expected: String) {
        #expect(AcceptHeader.refusingWebP(accept) == expected)
        #expect(!AcceptHeader.acceptsWebP(AcceptHeader.refusingWebP(accept)))
    }

    @Test func refusingWebPWithoutAHeaderStillAcceptsAnythingElse() {
        #expect(AcceptHeader.refusingWebP(nil) == "*/*, image/webp;q=0")
    }
}
