import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import ImageOrigin

/// Qiniu's grammar through the origin: the sizes it serves, `ignore-error/1`
/// for every failure, refused requests included, and one variant per
/// transformation however it is spelled.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct OriginGrammarTests {
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    /// photo.jpg is 800×600.
    @Test(arguments: [
        ("imageView2/3/w/300", 400, 300), ("imageView2/4/h/300", 400, 300), ("imageView2/5/w/300", 300, 300),
        ("imageMogr2/thumbnail/300x100!", 300, 100), ("imageMogr2/thumbnail/!150p", 1200, 900),
        ("imageMogr2/thumbnail/!400x400r", 533, 400), ("imageMogr2/thumbnail/1000x1000<", 1000, 750),
        ("imageMogr2/thumbnail/1000x1000>", 800, 600), ("imageMogr2/thumbnail/!50px", 400, 600),
        ("imageMogr2/thumbnail/120000@", 400, 300), ("imageMogr2/thumbnail/1600x", 1600, 1200),
    ])
    func servesQiniusSizes(fop: String, width: Int, height: Int) async throws {
        let response = await (try fixture.origin()).get("/photo.jpg?\(fop)")
        #expect(response.status == .ok, "\(response.bodyText)")
        let info = try ImageInfo(response.bodyData)
        #expect(info.width == width && info.height == height, "\(fop): \(info.width)x\(info.height)")
    }

    @Test func enlargingPastTheOutputLimitIsRefusedOrTheSourceWithIgnoreError() async throws {
        let origin = try fixture.origin()
        let refused = await origin.get("/photo.jpg?imageMogr2/thumbnail/!999p")
        #expect(refused.status == .contentTooLarge)
        #expect(refused.bodyText.contains("output limit"), "\(refused.bodyText)")
        let ignored = await origin.get("/photo.jpg?imageMogr2/thumbnail/!999p/ignore-error/1")
        let source = try fixture.data("photo.jpg")
        #expect(ignored.status == .ok && ignored.bodyData == source)
    }

    @Test(arguments: [
        "imageView2/9/w/10/ignore-error/1", "imageView2/2/w/abc/ignore-error/1", "imageMogr2/rotate/90/ignore-error/1",
        "imageMogr2/thumbnail/200x!/ignore-error/1", "imageView2/2/w/10/format/gif/ignore-error/1",
        "watermark/1/image/abc|imageView2/2/w/10/ignore-error/1", "imageView2/2/w/%ZZ/ignore-error/1",
        "imageView2/2/w/10/w/20/ignore-error/1", "bogus|ignore-error/1",
    ])
    func ignoreErrorAnswersARefusedRequestWithTheSource(fop: String) async throws {
        let origin = try fixture.origin()
        let response = await origin.get("/photo.jpg?\(fop)")
        #expect(response.status == .ok, "\(fop): \(response.status) \(response.bodyText)")
        #expect(response.bodyData == (try fixture.data("photo.jpg")))
        let withoutIgnore = fop.replacingOccurrences(of: "ignore-error/1", with: "ignore-error/0")
        #expect(await origin.get("/photo.jpg?\(withoutIgnore)").status == .badRequest, "\(withoutIgnore)")
        // A missing file is still missing.
        #expect(await origin.get("/nope.jpg?\(fop)").status == .notFound)
    }

    @Test func refusalsSayWhatIsWrong() async throws {
        let origin = try fixture.origin()
        let cases = [
            ("imageMogr2/thumbnail/200x!", "needs both a width and a height"),
            ("imageMogr2/thumbnail/!1000p", "1-999"),
            ("imageMogr2/thumbnail/abc", "!Np, !Npx, !xNp, Wx, xH, WxH, WxH!, WxH>, WxH<, !WxHr or Area@"),
            ("imageMogr2/rotate/90", "'rotate' is not supported by this origin"),
            ("imageView2/2/w/-10", "must be 1-30000"),
        ]
        for (fop, message) in cases {
            let response = await origin.get("/photo.jpg?\(fop)")
            #expect(response.status == .badRequest)
            #expect(response.bodyText.contains(message), "\(fop): \(response.bodyText)")
        }
    }

    @Test(arguments: [
        ["imageMogr2/thumbnail/300x200!", "imageMogr2/thumbnail/0300x+200!", "imageMogr2/strip/thumbnail/300x200!"],
        ["imageMogr2/thumbnail/!50p/quality/75", "imageMogr2/thumbnail/!050p/quality/75!"],
        ["imageMogr2/thumbnail/!200x100r", "imageMogr2/thumbnail/!+200x0100r"],
        ["imageView2/3/w/300/ignore-error/1", "imageView2/+3/w/0300/ignore-error/01"],
    ])
    func spellingsOfOneTransformationShareOneVariant(_ spellings: [String]) async throws {
        let origin = try fixture.origin()
        var tags: Set<String> = []
        for spelling in spellings {
            let response = await origin.get("/photo.jpg?" + spelling)
            #expect(response.status == .ok, "\(spelling): \(response.bodyText)")
            tags.insert(try #require(response.headers["ETag"]))
        }
        #expect(tags.count == 1, "\(tags)")
        let metrics = origin.metrics.render()
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"miss\"} 1"), "\(metrics)")
        let canonical = Set(try spellings.map { try ProcessingParser.parse($0).canonicalForm })
        #expect(canonical.count == 1, "\(canonical)")
    }
}
