import TestTraits
import Testing

@testable import BridgeProxy

@Suite(.timeLimit(.suiteBound))
struct CacheDirectivesTests {
    @Test(arguments: [
        ("public, max-age=604800", false),
        ("no-transform", true),
        ("public, No-Transform", true),
        ("max-age=1,NO-TRANSFORM", true),
        ("  no-transform  , max-age=3", true),
        ("x-no-transformer", false),
        ("no-trano-transform", false),
        ("private, no-cache=\"no-transform-ish\"", false),
        ("", false),
    ])
    func noTransformIsADirectiveNameInAnyCase(value: String, expected: Bool) {
        #expect(CacheDirectives.containsNoTransform(value) == expected)
    }

    @Test func anyOfSeveralValuesCounts() {
        #expect(CacheDirectives.containsNoTransform(["public", "max-age=5, no-transform"]))
        #expect(!CacheDirectives.containsNoTransform(["public", "max-age=5"]))
        #expect(!CacheDirectives.containsNoTransform(nil as String?))
    }
}
