import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import ImageOrigin

/// Cache keys and ETags come from the parsed transformation, not its
/// spelling; conditional requests answer 304 only for a representation that
/// exists and a date that is not in the future.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ConditionalAndCanonicalTests {
    let fixture: OriginFixture

    init() throws { fixture = try OriginFixture() }

    @Test func spellingsOfOneTransformationShareACacheEntryAndAnETag() async throws {
        let origin = try fixture.origin()
        let spellings = [
            "imageView2/2/w/10", "imageView2/2/w/010", "imageView2/2/w/+10", "imageView2/2/w/0000010",
        ]
        var tags: Set<String> = []
        for spelling in spellings {
            let response = await origin.get("/photo.jpg?" + spelling)
            #expect(response.status == .ok, "\(spelling)")
            tags.insert(try #require(response.headers["ETag"]))
        }
        #expect(tags.count == 1, "\(tags)")
        let metrics = origin.metrics.render()
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"miss\"} 1"), "\(metrics)")
        #expect(metrics.contains("webpbridge_origin_variant_cache_total{result=\"hit\"} 3"))
    }

    @Test func parameterOrderAndFormatAliasesDoNotMakeNewVariants() async throws {
        let origin = try fixture.origin()
        let first = await origin.get("/photo.jpg?imageView2/1/w/40/h/30/format/jpeg/q/80")
        let second = await origin.get("/photo.jpg?imageView2/1/q/080/format/JPG/h/30/w/40")
        #expect(first.status == .ok && second.status == .ok)
        #expect(first.headers["ETag"] == second.headers["ETag"])
        #expect(first.headers["ETag"] != (await origin.get("/photo.jpg?imageView2/1/w/40/h/31")).headers["ETag"])
    }

    /// A strong ETag names one sequence of bytes (RFC 9110 §8.8.1): two
    /// origins encoding with other defaults must not share one for the same
    /// URL, and two set alike must.
    @Test func variantTagsFollowTheEncoderSettingsAndOnlyThem() async throws {
        let target = "/photo.jpg?imageView2/2/w/100/format/webp"
        func answer(_ configure: (inout ImageOrigin.Configuration) -> Void) async throws -> (tag: String, body: Data) {
            let response = try await fixture.origin(configure).get(target)
            #expect(response.status == .ok)
            return (try #require(response.headers["ETag"]), response.bodyData)
        }
        let standard = try await answer { _ in }
        let again = try await answer { _ in }
        #expect(standard.tag == again.tag && standard.body == again.body)
        let settings: [(String, (inout ImageOrigin.Configuration) -> Void)] = [
            ("WebP quality 70", { $0.transformer.defaultWebPQuality = 70 }),
            ("WebP method 2", { $0.transformer.webpMethod = 2 }),
            ("no lossless try", { $0.transformer.triesLosslessForGraphics = false }),
            ("JPEG quality 90", { $0.transformer.defaultJPEGQuality = 90 }),
            ("AVIF speed 8", { $0.transformer.avifSpeed = 8 }),
        ]
        var others: [String: (tag: String, body: Data)] = [:]
        for (name, configure) in settings {
            others[name] = try await answer(configure)
            #expect(others[name]?.tag != standard.tag, "\(name)")
        }
        #expect(Set(others.values.map(\.tag) + [standard.tag]).count == settings.count + 1)
        // The ones whose bytes differ here are told apart by their tags, too.
        #expect(others["WebP quality 70"]?.body != standard.body)
        #expect(others["WebP method 2"]?.body != standard.body)
        // A limit decides whether a variant is made, not its bytes: same tag.
        let limited = try await answer { $0.transformer.maxSourceBytes = 10_000_000 }
        #expect(limited.tag == standard.tag)
    }

    @Test func theCanonicalFormParsesBackToTheSamePipeline() throws {
        for fop in [
            "imageView2/2/w/+10/h/007/format/JPEG/q/90/interlace/1",
            "imageMogr2/auto-orient/thumbnail/0750x0400>/quality/50|imageView2/0/w/5/ignore-error/1",
            "imageMogr2/thumbnail/!50p/format/webp", "imageMogr2/thumbnail/x400", "imageMogr2/thumbnail/750x",
            "imageView2/2/w/300/format/AVIF/q/50", "imageMogr2/thumbnail/300x/format/avif",
        ] {
            let pipeline = try ProcessingParser.parse(fop)
            let canonical = pipeline.canonicalForm
            #expect(try ProcessingParser.parse(canonical) == pipeline, "\(fop) → \(canonical)")
            #expect(try ProcessingParser.parse(canonical).canonicalForm == canonical)
        }
        #expect(try ProcessingParser.parse("imageView2/2/w/010").canonicalForm == "imageView2/2/w/10")
    }

    /// RFC 9110 §13.1.3: a date later than the server's clock is invalid and ignored.
    @Test(arguments: ["/photo.jpg", "/photo.jpg?imageView2/2/w/100"])
    func aFutureIfModifiedSinceIsIgnored(target: String) async throws {
        let origin = try fixture.origin()
        let future = HTTPDate.format(Date().addingTimeInterval(365 * 86_400))
        let response = await origin.get(target, headers: ["If-Modified-Since": future])
        #expect(response.status == .ok)
        let now = try #require(response.headers["Last-Modified"])
        #expect(await origin.get(target, headers: ["If-Modified-Since": now]).status == .notModified)
    }

    /// RFC 9110 §13.1.2: `If-None-Match: *` is false only when a current representation exists.
    @Test func wildcardIfNoneMatchNeedsAVariantThatCanBeMade() async throws {
        let origin = try fixture.origin()
        let broken = await origin.get("/broken.jpg?imageView2/2/w/100", headers: ["If-None-Match": "*"])
        #expect(broken.status != .notModified)
        #expect(broken.status.code >= 400)
        let tooBig = await origin.get("/photo.jpg?imageView2/2/w/100/format/gif", headers: ["If-None-Match": "*"])
        #expect(tooBig.status == .badRequest)
        let made = await origin.get("/photo.jpg?imageView2/2/w/100", headers: ["If-None-Match": "*"])
        #expect(made.status == .notModified)
        #expect(await origin.get("/nope.jpg", headers: ["If-None-Match": "*"]).status == .notFound)
        #expect(await origin.get("/photo.jpg", headers: ["If-None-Match": "*"]).status == .notModified)
    }
}

/// Style suffixes are matched in time bounded by the longest style name,
/// not the path: a path of thousands of separators costs what a short one does.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct StyleMatchingWorkTests {
    let sheet = StyleSheet(
        separators: ["-", "_"],
        styles: [
            "small": try! ProcessingParser.parse("imageView2/2/w/100"),
            "a-b": try! ProcessingParser.parse("imageView2/2/w/5"),
        ])

    @Test func workDoesNotGrowWithThePath() {
        var shortWork = 0
        var longWork = 0
        _ = sheet.match("/p" + String(repeating: "-a", count: 100), work: &shortWork)
        _ = sheet.match("/p" + String(repeating: "-a", count: 8_000), work: &longWork)
        #expect(longWork == shortWork, "short \(shortWork), long \(longWork)")
    }

    @Test func stylesAreStillFound() throws {
        #expect(sheet.match("/photo.jpg-small")?.style == "small")
        #expect(sheet.match("/photo.jpg-small")?.filePath == "/photo.jpg")
        #expect(sheet.match("/photo.jpg_a-b")?.style == "a-b")
        #expect(sheet.match("/photo.jpg-a-b")?.filePath == "/photo.jpg")
        #expect(sheet.match("-small") == nil)
        #expect(sheet.match("/photo.jpg-large") == nil)
        #expect(sheet.match(String(repeating: "-a", count: 8_000) + "-small")?.style == "small")
    }
}
