import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound)) struct HTTPFieldListTests {
    @Test func lookupIgnoresCase() {
        let headers: HTTPFieldList = ["Content-Type": "image/webp"]
        #expect(headers["content-type"] == "image/webp")
        #expect(headers["CONTENT-TYPE"] == "image/webp")
        #expect(headers.contains("Content-type"))
        #expect(headers["Accept"] == nil)
    }

    @Test func keepsRepeatedFieldsInOrder() {
        var headers = HTTPFieldList()
        headers.add(name: "Vary", value: "Accept")
        headers.add(name: "vary", value: "Origin")
        #expect(headers.values(for: "VARY") == ["Accept", "Origin"])
        #expect(headers["Vary"] == "Accept")
        #expect(headers.count == 2)
    }

    @Test func settingReplacesEveryFieldOfThatName() {
        var headers: HTTPFieldList = ["A": "1", "b": "2", "a": "3"]
        headers["a"] = "4"
        #expect(headers.values(for: "A") == ["4"])
        #expect(headers.map(\.name) == ["a", "b"])
        headers["B"] = nil
        #expect(headers.count == 1)
    }

    @Test func equalityIgnoresNameCaseButNotOrder() {
        let upper: HTTPFieldList = ["X-A": "1"]
        let lower: HTTPFieldList = ["x-a": "1"]
        #expect(upper == lower)
        #expect(HTTPFieldList([("a", "1"), ("b", "2")]) != HTTPFieldList([("b", "2"), ("a", "1")]))
    }
}
