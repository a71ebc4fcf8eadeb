import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct VaryHeaderTests {
    @Test(arguments: [
        (["Accept"], "Accept"), (["Accept", "User-Agent"], "Accept, User-Agent"),
        (["Accept", "accept", "ACCEPT"], "Accept"), (["Accept, User-Agent", "user-agent"], "Accept, User-Agent"),
        (["Accept", "*"], "*"), ([" Accept ,, ", ""], "Accept"), ([], ""),
    ])
    func listingNamesEachOnce(names: [String], expected: String) {
        #expect(VaryHeader.value(listing: names) == expected)
    }

    @Test(
        arguments: [
            ("Accept", nil, "Accept"), ("Accept", "", "Accept"), ("Accept", "  ", "Accept"),
            ("Accept", "Origin", "Origin, Accept"), ("Accept, User-Agent", "accept", "accept, User-Agent"),
            ("Accept", "*", "*"), ("Accept", "Origin, *", "*"), ("*", "Origin", "*"),
            ("Accept", "Accept-Encoding,,Origin", "Accept-Encoding, Origin, Accept"),
        ] as [(String, String?, String)])
    func mergingKeepsTheExistingFirst(fields: String, existing: String?, expected: String) {
        #expect(VaryHeader.merging(fields, into: existing) == expected)
    }

    @Test(arguments: [("*", true), (" * ", true), ("Accept, *", true), ("Accept", false), ("", false), ("x*y", false)])
    func wildcardIsAnElement(value: String, expected: Bool) {
        #expect(VaryHeader.containsWildcard(value) == expected)
        #expect(!VaryHeader.containsWildcard(nil))
    }

    @Test func aHostileListStaysLinear() {
        let names = (0..<50_000).map { "X-\($0)" }
        let merged = VaryHeader.merging("Accept", into: (names + names.map { $0.uppercased() }).joined(separator: ","))
        #expect(merged.hasPrefix("X-0, X-1, ") && merged.hasSuffix("X-49999, Accept"))
    }
}
