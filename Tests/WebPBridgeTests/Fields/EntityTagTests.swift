import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct EntityTagTests {
    @Test func strongTagsAreQuoted() {
        #expect(EntityTag.strong("abc") == "\"abc\"")
    }

    @Test(arguments: [
        ("\"a\"", true), ("W/\"a\"", true), ("\"b\", \"a\"", true), (" \t\"a\"\t ", true), ("*", true),
        (" * ", true), ("\"b\"", false), ("", false), ("a", false), ("\"A\"", false), (",,,", false),
    ])
    func ifNoneMatchComparesWeakly(ifNoneMatch: String, matches: Bool) {
        #expect(EntityTag.ifNoneMatch(ifNoneMatch, matches: "\"a\"") == matches)
        #expect(EntityTag.ifNoneMatch(ifNoneMatch, matches: "W/\"a\"") == matches)
    }

    @Test(arguments: [("*", true), (" *\t", true), ("\"*\"", false), ("*, \"a\"", false), ("", false)])
    func wildcardIsAStarAlone(value: String, expected: Bool) {
        #expect(EntityTag.isWildcard(value) == expected)
        #expect(!EntityTag.isWildcard(nil))
    }

    @Test func digestIsFNV1a() {
        var empty = EntityTag.Digest()
        #expect(empty.value == 0xcbf2_9ce4_8422_2325)
        empty.update([])
        #expect(empty.value == 0xcbf2_9ce4_8422_2325)
        var digest = EntityTag.Digest()
        digest.update("a".utf8)
        #expect(digest.value == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func aLongListIsLinear() {
        let list = Array(repeating: "W/\"x\"", count: 100_000).joined(separator: ", ")
        #expect(!EntityTag.ifNoneMatch(list, matches: "\"a\""))
        #expect(EntityTag.ifNoneMatch(list + ", \"a\"", matches: "\"a\""))
    }
}
