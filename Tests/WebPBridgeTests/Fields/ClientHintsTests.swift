import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// ``ClientHints`` against the one table of hint headers and the bucket
/// each request gets (`Resources/hint-buckets.json`); `make nginx-classes`
/// holds the nginx recipe's key map to the same rows.
@Suite(.timeLimit(.suiteBound))
struct ClientHintTableTests {
    static let rows = HintBucketTable.rows

    @Test func theTablesBucketsAreTheCodes() throws {
        #expect(try HintBucketTable.load().buckets == ClientHints.widthBuckets)
        #expect(Self.rows.count >= 100)
    }

    @Test(arguments: rows)
    func eachRowGetsItsBucket(_ row: HintBucketTable.Row) {
        let hints = ClientHints(fields: HTTPFieldList(row.headers.map { ($0.key, $0.value) }))
        #expect(hints.widthBucket == row.bucket)
        #expect(hints.saveData == row.saveData)
        let sizing = hints.sizing(honouringWidth: true, saveData: true)
        #expect(sizing.maxWidth == row.sized)
        #expect(sizing.saveData == row.saveData)
    }
}

@Suite(.timeLimit(.suiteBound))
struct ClientHintsTests {
    static let pairs = Array(zip(ClientHints.widthBuckets, [0] + ClientHints.widthBuckets.dropLast()))

    /// Each bucket's boundary: its lower neighbour plus one and the bucket
    /// itself get it; one more gets the next.
    @Test(arguments: pairs)
    func everyBucketBoundary(bucket: Int, below: Int) {
        let next = ClientHints.widthBuckets.first { $0 > bucket }
        #expect(ClientHints(width: below + 1).widthBucket == bucket)
        #expect(ClientHints(width: bucket).widthBucket == bucket)
        #expect(ClientHints(width: bucket + 1).widthBucket == next)
    }

    @Test(arguments: ["Sec-CH-Width", "Width", "Sec-CH-Viewport-Width", "Viewport-Width"])
    func widthFieldsHoldTheirBounds(name: String) {
        func read(_ value: String) -> ClientHints { ClientHints(fields: [name: value]) }
        let isWidth = !name.contains("Viewport")
        for (value, expected) in [("1", 1), ("16383", 16383), ("0", nil), ("16384", nil), ("-1", nil), ("x", nil)] {
            let hints = read(value)
            #expect((isWidth ? hints.width : hints.viewportWidth) == expected, "\(name): \(value)")
        }
    }

    @Test(arguments: ["Sec-CH-DPR", "DPR"])
    func dprHoldsItsBounds(name: String) {
        for (value, expected) in [("0.001", 0.001), ("4", 4.0), ("4.0", 4.0), ("0", nil), ("4.001", nil), ("-1", nil)] {
            #expect(ClientHints(fields: [name: value]).dpr == expected, "\(name): \(value)")
        }
    }

    @Test func repeatedFieldLinesAreIgnored() {
        let fields = HTTPFieldList([("Sec-CH-Width", "300"), ("Sec-CH-Width", "600"), ("Width", "900")])
        #expect(ClientHints(fields: fields).width == 900)
        let both = HTTPFieldList([("Save-Data", "on"), ("Save-Data", "on")])
        #expect(!ClientHints(fields: both).saveData)
    }

    /// A flood of hostile values: long, binary, nested; none is read, and
    /// none is even scanned past ``ClientHints/maxValueBytes``.
    @Test func hostileValuesAreIgnored() {
        let hostile = [
            String(repeating: "9", count: 1 << 16), String(repeating: "1.", count: 1 << 15), "\u{0}640", "640\u{0}",
            "1" + String(repeating: "0", count: 31), "9223372036854775808", "1.7976931348623157e308", "2.5.5",
            "--2", "", " ", ";", ",",
        ]
        for value in hostile {
            let fields: HTTPFieldList = [
                "Sec-CH-DPR": value, "DPR": value, "Sec-CH-Width": value, "Width": value,
                "Sec-CH-Viewport-Width": value, "Viewport-Width": value, "Save-Data": value,
            ]
            #expect(ClientHints(fields: fields) == ClientHints(), "\(value.prefix(40))")
        }
    }

    @Test func saveDataStepsOneBucketDownAndOnlyWhenHonoured() {
        let hints = ClientHints(width: 700, saveData: true)
        #expect(hints.sizing(honouringWidth: true, saveData: true) == .init(maxWidth: 640, saveData: true))
        #expect(hints.sizing(honouringWidth: true, saveData: false) == .init(maxWidth: 750, saveData: false))
        #expect(hints.sizing(honouringWidth: false, saveData: true) == .init(maxWidth: nil, saveData: true))
        #expect(hints.sizing(honouringWidth: false, saveData: false).isNone)
    }

    @Test func sizingKeys() {
        #expect(ClientHints.Sizing(maxWidth: 640).key == "w640")
        #expect(ClientHints.Sizing(maxWidth: 480, saveData: true).key == "w480-sd")
        #expect(ClientHints.Sizing(saveData: true).key == "sd")
        #expect(ClientHints.Sizing().key.isEmpty)
    }

    @Test func acceptCHMergesWithThePagesOwn() {
        #expect(ClientHints.acceptCH(merging: nil) == "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
        #expect(
            ClientHints.acceptCH(merging: "Sec-CH-UA-Model, sec-ch-dpr")
                == "Sec-CH-UA-Model, sec-ch-dpr, Sec-CH-Width, Sec-CH-Viewport-Width")
    }
}
