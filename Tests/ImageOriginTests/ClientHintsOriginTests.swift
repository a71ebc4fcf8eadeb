import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `--client-hints` and `--save-data` at the origin: the width each hint
/// header gives a variant, `Vary`, `Content-DPR`, the key (and so the
/// ETag), and nothing changed with the flags off. The fixture's photo is
/// 800×600; `?imageView2/2/w/750` is the URL's own width.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ClientHintsOriginTests {
    static let hintVary = "Sec-CH-DPR, DPR, Sec-CH-Width, Width, Sec-CH-Viewport-Width, Viewport-Width"
    static let rule = "/photo.jpg?imageView2/2/w/750"

    /// Held for the test's length: its folder goes with it.
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    static func origin(
        _ fixture: OriginFixture, hints: Bool = true, saveData: Bool = false, autoFormat: Bool = false
    ) throws -> ImageOrigin {
        try fixture.origin {
            $0.clientHints = hints
            $0.saveData = saveData
            $0.autoFormat = autoFormat
        }
    }

    static func width(_ response: HTTPResponse) throws -> Int {
        try ImageInfo(response.bodyData).width
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let headers: [(String, String)]
        let width: Int
        var testDescription: String { headers.map { "\($0): \($1)" }.joined(separator: ", ") }
    }

    /// Each header alone and in the pairs it is read in; a hint lowers the
    /// URL's 750, never raises it.
    static let cases: [Case] = [
        Case(headers: [], width: 750),
        Case(headers: [("Sec-CH-Width", "300")], width: 320),
        Case(headers: [("Width", "300")], width: 320),
        Case(headers: [("Sec-CH-Width", "481")], width: 640),
        Case(headers: [("Sec-CH-Width", "700")], width: 750),
        Case(headers: [("Sec-CH-Width", "2000")], width: 750),
        Case(headers: [("Sec-CH-Viewport-Width", "300")], width: 320),
        Case(headers: [("Viewport-Width", "300")], width: 320),
        Case(headers: [("Sec-CH-Viewport-Width", "300"), ("Sec-CH-DPR", "1.5")], width: 480),
        Case(headers: [("Viewport-Width", "300"), ("DPR", "2")], width: 640),
        Case(headers: [("Sec-CH-Viewport-Width", "100"), ("Sec-CH-DPR", "1")], width: 160),
        Case(headers: [("Sec-CH-DPR", "3")], width: 750),
        Case(headers: [("Sec-CH-Width", "300"), ("Sec-CH-Viewport-Width", "2000")], width: 320),
    ]

    @Test(arguments: cases)
    func eachHeaderGivesItsWidth(_ hintCase: Case) async throws {
        let origin = try Self.origin(fixture)
        let response = await origin.get(Self.rule, headers: HTTPFieldList(hintCase.headers))
        #expect(response.status == .ok)
        #expect(try Self.width(response) == hintCase.width)
        #expect(response.headers["Vary"] == Self.hintVary)
    }

    @Test func withTheFlagsOffNothingChanges() async throws {
        let plain = try fixture.origin()
        let hinted: HTTPFieldList = ["Sec-CH-Width": "300", "Sec-CH-DPR": "2", "Save-Data": "on"]
        for target in [Self.rule, "/photo.jpg"] {
            let without = await plain.get(target)
            let with = await plain.get(target, headers: hinted)
            #expect(with.headers["ETag"] == without.headers["ETag"])
            #expect(with.headers["Vary"] == nil && with.headers["Content-DPR"] == nil)
            #expect(with.bodyData == without.bodyData)
        }
        // And with the flags on, a request without hints keeps the ETag it had without them.
        let on = try Self.origin(fixture, saveData: true)
        #expect(await on.get(Self.rule).headers["ETag"] == (await plain.get(Self.rule)).headers["ETag"])
    }

    @Test func varyMergesWithAcceptAndSaveData() async throws {
        let origin = try Self.origin(fixture, saveData: true, autoFormat: true)
        let response = await origin.get("/photo.jpg", headers: ["Accept": "image/webp", "Sec-CH-Width": "300"])
        #expect(response.headers["Vary"] == "Accept, " + Self.hintVary + ", Save-Data")
        #expect(response.headers["Content-Type"] == "image/webp")
        #expect(try Self.width(response) == 320)
    }

    /// Draft -06's "selected image width / (Width / DPR)", only where the
    /// hint changed the size.
    @Test func contentDPRWhereTheHintChangedTheSize() async throws {
        let origin = try Self.origin(fixture)
        let smaller = await origin.get(Self.rule, headers: ["Sec-CH-Width": "300", "Sec-CH-DPR": "2"])
        #expect(try Self.width(smaller) == 320)
        #expect(smaller.headers["Content-DPR"] == "2.133")
        // The same variant for another client in its bucket: its own Content-DPR, from the cache.
        let cached = await origin.get(Self.rule, headers: ["Sec-CH-Width": "320", "Sec-CH-DPR": "2"])
        #expect(cached.headers["ETag"] == smaller.headers["ETag"] && cached.headers["Content-DPR"] == "2.0")
        let viewport = await origin.get(Self.rule, headers: ["Sec-CH-Viewport-Width": "300", "Sec-CH-DPR": "1"])
        #expect(viewport.headers["Content-DPR"] == "1.067")
        let unchanged = await origin.get(Self.rule, headers: ["Sec-CH-Width": "2000", "Sec-CH-DPR": "2"])
        #expect(try Self.width(unchanged) == 750 && unchanged.headers["Content-DPR"] == nil)
    }

    /// A ready answer is kept for the CSS width its `Content-DPR` came
    /// from: the same bucket reached by `Viewport-Width` alone gets its own
    /// (320 / 200), not the one computed from `Width` (320 / (300 / 1.3)),
    /// which an adversarial review saw answered from the ready answers.
    @Test func theSameBucketFromTheViewportGetsItsOwnContentDPR() async throws {
        let origin = try Self.origin(fixture)
        for _ in 0..<2 {
            let slot = await origin.get(Self.rule, headers: ["Sec-CH-Width": "300", "Sec-CH-DPR": "1.3"])
            #expect(try Self.width(slot) == 320 && slot.headers["Content-DPR"] == "1.387")
        }
        let viewport = await origin.get(Self.rule, headers: ["Sec-CH-Viewport-Width": "200", "Sec-CH-DPR": "1.3"])
        #expect(try Self.width(viewport) == 320)
        #expect(viewport.headers["Content-DPR"] == "1.6")
    }

    /// Two DPRs in two buckets never share a variant, in the variant cache
    /// or in the ready answers, in either order.
    @Test func twoDPRsNeverShareAVariant() async throws {
        let origin = try Self.origin(fixture)
        let oneX: HTTPFieldList = ["Sec-CH-Viewport-Width": "300", "Sec-CH-DPR": "1"]
        let twoX: HTTPFieldList = ["Sec-CH-Viewport-Width": "300", "Sec-CH-DPR": "2"]
        var etags: [Int: String] = [:]
        for (headers, width) in [(oneX, 320), (twoX, 640), (oneX, 320), (twoX, 640), (oneX, 320)] {
            let response = await origin.get(Self.rule, headers: headers)
            #expect(try Self.width(response) == width)
            if let known = etags[width] { #expect(response.headers["ETag"] == known) }
            etags[width] = response.headers["ETag"]
        }
        #expect(etags.count == 2 && etags[320] != etags[640])
        let plain = await origin.get("/photo.jpg", headers: oneX)
        #expect(try Self.width(plain) == 320 && plain.headers["Content-Type"] == "image/jpeg")
        #expect(try Self.width(await origin.get("/photo.jpg", headers: twoX)) == 640)
    }

    /// A plain URL the hint would not shrink is the file as it is, not a copy.
    @Test func aPlainFileTheHintDoesNotShrinkIsTheFile() async throws {
        let origin = try Self.origin(fixture)
        let response = await origin.get("/photo.jpg", headers: ["Sec-CH-Width": "1000"])
        #expect(response.bodyData == (try fixture.data("photo.jpg")))
        #expect(response.headers["Content-DPR"] == nil && response.headers["Vary"] == Self.hintVary)
    }

    @Test func animationsAndOtherFilesAreLeftAlone() async throws {
        let origin = try Self.origin(fixture, saveData: true)
        let animation = await origin.get("/anim.webp", headers: ["Sec-CH-Width": "160", "Save-Data": "on"])
        #expect(animation.bodyData == (try fixture.data("anim.webp")) && animation.headers["Vary"] == nil)
        let text = await origin.get("/notes.txt", headers: ["Sec-CH-Width": "160"])
        #expect(text.headers["Vary"] == nil)
    }

    @Test func saveDataStepsDownABucketAndLowersTheQuality() async throws {
        let origin = try Self.origin(fixture, saveData: true)
        let on: HTTPFieldList = ["Sec-CH-Width": "600", "Save-Data": "on"]
        let saving = await origin.get(Self.rule, headers: on)
        #expect(try Self.width(saving) == 480)
        #expect(saving.headers["Vary"] == Self.hintVary + ", Save-Data")
        #expect(try Self.width(await origin.get(Self.rule, headers: ["Sec-CH-Width": "600"])) == 640)
        // Save-Data alone: the URL's width, at a lower quality — fewer bytes, another ETag.
        let webp = "/photo.jpg?imageView2/2/w/750/format/webp"
        let full = await origin.get(webp)
        let lighter = await origin.get(webp, headers: ["Save-Data": "on"])
        #expect(try Self.width(full) == 750 && Self.width(lighter) == 750)
        let fullBytes = full.bodyData.count
        let lighterBytes = lighter.bodyData.count
        #expect(lighterBytes < fullBytes, "\(lighterBytes) bytes under Save-Data against \(fullBytes)")
        #expect(lighter.headers["ETag"] != full.headers["ETag"])
        // Only Save-Data honoured: the width hints change nothing and are not in Vary.
        let onlySaveData = try Self.origin(fixture, hints: false, saveData: true)
        let response = await onlySaveData.get(Self.rule, headers: on)
        #expect(try Self.width(response) == 750 && response.headers["Vary"] == "Save-Data")
    }

    /// A flood of distinct widths makes no more variants than there are
    /// buckets (and one for "none"): the bound on what hints add to a cache.
    @Test func aFloodOfWidthsMakesAtMostOneVariantPerBucket() async throws {
        let origin = try Self.origin(fixture)
        var etags: Set<String> = []
        for width in stride(from: 1, through: 3000, by: 7) {
            let response = await origin.get(Self.rule, headers: ["Sec-CH-Width": String(width)])
            #expect(response.status == .ok)
            etags.insert(response.headers["ETag"] ?? "")
        }
        // 160…750 (five buckets, the URL's 750 above them) and the buckets 960…2560 and "none" past them.
        #expect(etags.count == ClientHints.widthBuckets.count + 1)
    }

    @Test func hostileHintsAreTheDefault() async throws {
        let origin = try Self.origin(fixture, saveData: true)
        let reference = await origin.get(Self.rule)
        for value in ["0", "-1", "1e9", String(repeating: "9", count: 5000), "NaN", "640;x", "\u{7F}", "4.5"] {
            let headers: HTTPFieldList = [
                "Sec-CH-Width": value, "Width": value, "Sec-CH-Viewport-Width": value, "Viewport-Width": value,
                "Sec-CH-DPR": value, "DPR": value, "Save-Data": value,
            ]
            let response = await origin.get(Self.rule, headers: headers)
            #expect(response.status == .ok && response.headers["ETag"] == reference.headers["ETag"])
        }
    }
}
