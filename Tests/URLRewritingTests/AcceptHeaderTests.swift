import Testing
import URLRewriting

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

    @Test func absentHeaderIsNoWebP() {
        #expect(!AcceptHeader.acceptsWebP(nil))
    }
}
