import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct CacheControlTests {
    @Test(arguments: [
        ("public, max-age=604800", false),
        ("no-transform", true),
        ("public, No-Transform", true),
        ("max-age=1,NO-TRANSFORM", true),
        ("  no-transform  , max-age=3", true),
        ("x-no-transformer", false),
        ("no-trano-transform", false),
        ("private, no-cache=\"no-transform-ish\"", false),
        ("private, no-cache=\"x, no-transform, y\"", false),
        ("no-cache=\"x, y\", no-transform", true),
        ("no-transform=1", true),
        ("", false),
    ])
    func noTransformIsADirectiveNameInAnyCase(value: String, expected: Bool) {
        #expect(CacheControl.containsNoTransform(value) == expected)
        #expect(CacheControl(value).noTransform == expected, "the pre-scan and the parser agree")
    }

    @Test func anyOfSeveralValuesCounts() {
        #expect(CacheControl.containsNoTransform(["public", "max-age=5, no-transform"]))
        #expect(!CacheControl.containsNoTransform(["public", "max-age=5"]))
        #expect(!CacheControl.containsNoTransform([]))
        #expect(!CacheControl.containsNoTransform(nil as String?))
    }

    @Test(arguments: [
        ("max-age=600", 600), ("public, max-age=600", 600), ("max-age = 600", 600), ("max-age=\"600\"", 600),
        ("MAX-AGE=60", 60), ("max-age=600, max-age=30", 30), ("max-age=30, max-age=600", 30),
        ("max-age=99999999999999999999", Int(Int32.max)), ("max-age=2147483648", Int(Int32.max)),
        ("max-age=oops", 0), ("max-age=", 0), ("max-age", 0), ("max-age=-5", 0), ("max-age=1.5", 0),
        ("max-age=\"6\"0", 6), ("max-age=\"60", 60), ("max-age=600, max-age=oops", 0),
    ])
    func maxAgeFollowsRFC9111(header: String, seconds: Int) {
        #expect(CacheControl(header).maxAge == seconds)
    }

    @Test func sharedMaxAgeIsSeparate() {
        let parsed = CacheControl("max-age=60, s-maxage=300, s-maxage=200")
        #expect(parsed.maxAge == 60 && parsed.sharedMaxAge == 200)
        #expect(CacheControl("s-maxage=300").maxAge == nil)
    }

    @Test(arguments: ["no-store", "public, no-store", "max-age=600, NO-STORE", "private,no-store", "\tno-store\t"])
    func noStoreInAnyCaseAndPlace(header: String) {
        #expect(CacheControl(header).noStore)
    }

    @Test func everyDirectiveTheCodeActsOn() {
        let parsed = CacheControl("Public, private=\"Set-Cookie\", no-cache=\"a, b\", no-store, no-transform")
        #expect(parsed.isPublic && parsed.isPrivate && parsed.noCache && parsed.noStore && parsed.noTransform)
        #expect(parsed.maxAge == nil && parsed.sharedMaxAge == nil)
    }

    @Test func aCommaInsideAQuotedStringDoesNotEndTheDirective() {
        // Split naively, `max-age=5` and `no-store` would be read out of the field list.
        let parsed = CacheControl("private=\"x, max-age=5, no-store\", max-age=600")
        #expect(parsed.isPrivate && parsed.maxAge == 600 && !parsed.noStore)
        // A quoted pair does not close the string.
        #expect(!CacheControl("no-cache=\"a\\\", no-store\"").noStore)
    }

    @Test func severalValuesReadAsOneList() {
        let parsed = CacheControl(values: ["max-age=600", "no-cache", "max-age=60"])
        #expect(parsed.noCache && parsed.maxAge == 60)
        #expect(CacheControl(values: []) == CacheControl(nil as String?))
        #expect(CacheControl(nil as String?) == CacheControl())
    }

    @Test(arguments: [
        "", ",", ",,,", "=", "==", "=5", "\"", "max-age=\"", "x-ext=\"\\", ";;", " , = , ", "\u{0}no-store",
        "ñó-stóre, max-age=٣", String(repeating: "\"", count: 1001),
    ])
    func oddValuesParseWithoutDirectives(header: String) {
        let parsed = CacheControl(header)
        #expect(!parsed.noStore && !parsed.noCache && !parsed.noTransform)
        #expect(parsed.maxAge == nil || parsed.maxAge == 0)
    }

    @Test func aHugeValueIsReadInOnePass() {
        // 100,000 directives and a megabyte of quoted text: linear work, the last directive still counts.
        let directives = Array(repeating: "x-ext=\"a, b\"", count: 100_000).joined(separator: ", ")
        let parsed = CacheControl(
            directives + ", no-store, max-age=7, no-cache=\"" + String(repeating: ",", count: 1 << 20))
        #expect(parsed.noStore && parsed.maxAge == 7 && parsed.noCache)
        #expect(CacheControl.containsNoTransform(directives + ",no-transform"))
        #expect(!CacheControl.containsNoTransform(directives))
    }
}
