import Foundation
import ImageOrigin
import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ProcessingParserTests {
    @Test func imageView2WithEveryParameter() throws {
        let pipeline = try ProcessingParser.parse(
            "imageView2/1/w/200/h/100/format/webp/q/80/interlace/1/ignore-error/1")
        #expect(
            pipeline.steps == [
                .imageView2(ImageView2(mode: 1, width: 200, height: 100, format: .webp, quality: 80, interlace: true))
            ])
        #expect(pipeline.ignoresErrors)
        #expect(pipeline.outputFormat == .webp && pipeline.quality == 80 && pipeline.interlace)
    }

    @Test func imageMogr2Subset() throws {
        let cases: [(String, ImageMogr2.Thumbnail)] = [
            ("750x", .width(750)), ("x400", .height(400)), ("750x400", .fit(width: 750, height: 400)),
            ("750x400>", .shrinkToFit(width: 750, height: 400)), ("750x400<", .enlargeToFit(width: 750, height: 400)),
            ("750x400!", .exact(width: 750, height: 400)), ("!750x400r", .cover(width: 750, height: 400)),
            ("!50p", .percent(50)), ("!150p", .percent(150)), ("!999p", .percent(999)), ("!50px", .widthPercent(50)),
            ("!x50p", .heightPercent(50)), ("640000@", .area(640_000)),
        ]
        for (geometry, expected) in cases {
            let pipeline = try ProcessingParser.parse(
                "imageMogr2/auto-orient/thumbnail/\(geometry)/format/jpg/quality/60")
            #expect(
                pipeline.steps == [
                    .imageMogr2(ImageMogr2(autoOrient: true, thumbnail: expected, format: .jpeg, quality: 60))
                ], "\(geometry)")
        }
    }

    @Test func avifIsAFormatOfBothOperations() throws {
        let view = try ProcessingParser.parse("imageView2/2/w/300/format/avif/q/50")
        #expect(view.steps == [.imageView2(ImageView2(mode: 2, width: 300, format: .avif, quality: 50))])
        let mogr = try ProcessingParser.parse("imageMogr2/thumbnail/300x/format/avif")
        #expect(mogr.outputFormat == .avif)
        #expect(view.canonicalForm.hasSuffix("format/avif/q/50"), "\(view.canonicalForm)")
    }

    @Test func pipelinesTakeTheLastFormatAndQuality() throws {
        let pipeline = try ProcessingParser.parse("imageView2/2/w/300/format/png|imageMogr2/format/webp/quality/50")
        #expect(pipeline.steps.count == 2)
        #expect(pipeline.outputFormat == .webp && pipeline.quality == 50 && !pipeline.ignoresErrors)
    }

    @Test(arguments: [
        "imageView2/format/webp",  // the mode is required
        "imageView2/6/w/100",
        "imageView2/2/w/0",
        "imageView2/2/w/99999",
        "imageView2/2/w",
        "imageView2/2/w/100/w/200",
        "imageView2/2/format/tiff",
        "imageView2/2/q/101",
        "imageView2/2/interlace/2",
        "imageView2/2/bogus/1",
        "imageMogr2/thumbnail/abc",
        "imageMogr2/thumbnail/!0p",
        "imageMogr2/thumbnail/!1000p",
        "imageMogr2/thumbnail/x",
        "imageMogr2/thumbnail/200x!",
        "imageMogr2/thumbnail/x200>",
        "imageMogr2/thumbnail/!200r",
        "imageMogr2/thumbnail/!200x300",
        "imageMogr2/thumbnail/0@",
        "imageMogr2/thumbnail/1x2x3",
        "imageMogr2/thumbnail/!-5p",
        "imageMogr2/rotate/90",
        "imageMogr2/crop/100x100",
        "imageMogr2/gravity/Center/crop/100x100",
        "imageMogr2/blur/3x5",
        "imageMogr2/quality/75!!",
        "imageView2/2/w/-10",
        "imageView2/2/w/1e3",
        "imageView2/2/w/ 10",
        "imageView2/2/w/00000000000000000000010000000000",
        "imageView2/2/colors/64",
        "watermark/1/image/abc",
        "",
        "imageView2/2/w/100||imageView2/2/w/50",
    ])
    func malformedRequestsAreRejectedWithAReason(_ fop: String) {
        #expect(throws: ProcessingError.self) { try ProcessingParser.parse(fop) }
    }

    @Test func atMostThirtySteps() throws {
        let step = "imageView2/2/w/100"
        _ = try ProcessingParser.parse(Array(repeating: step, count: 30).joined(separator: "|"))
        #expect(throws: ProcessingError.self) {
            try ProcessingParser.parse(Array(repeating: step, count: 31).joined(separator: "|"))
        }
    }
}

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct ThumbnailGeometryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var mode: Int
        var w: Int?
        var h: Int?
        var source: (Int, Int)
        var scaled: (Int, Int)
        var output: (Int, Int)
        var testDescription: String {
            "mode \(mode) w \(w.map(String.init) ?? "-") h \(h.map(String.init) ?? "-") on \(source)"
        }
    }

    static let cases: [Case] = [
        // mode 0: long edge ≤ W, short edge ≤ H (follows the orientation).
        Case(mode: 0, w: 400, h: 300, source: (1000, 500), scaled: (400, 200), output: (400, 200)),
        Case(mode: 0, w: 400, h: 300, source: (500, 1000), scaled: (200, 400), output: (200, 400)),
        Case(mode: 0, w: 400, h: nil, source: (500, 1000), scaled: (200, 400), output: (200, 400)),
        // mode 1: cover then centre-crop; one side alone is a square.
        Case(mode: 1, w: 200, h: 100, source: (1000, 1000), scaled: (200, 200), output: (200, 100)),
        Case(mode: 1, w: 300, h: nil, source: (1200, 600), scaled: (600, 300), output: (300, 300)),
        // mode 2: width ≤ W and height ≤ H.
        Case(mode: 2, w: 400, h: 300, source: (1000, 500), scaled: (400, 200), output: (400, 200)),
        Case(mode: 2, w: 400, h: 300, source: (500, 1000), scaled: (150, 300), output: (150, 300)),
        Case(mode: 2, w: nil, h: 250, source: (1000, 500), scaled: (500, 250), output: (500, 250)),
        // mode 3: cover without crop.
        Case(mode: 3, w: 400, h: 300, source: (1000, 500), scaled: (600, 300), output: (600, 300)),
        // mode 4: long edge ≥ W, short edge ≥ H.
        Case(mode: 4, w: 400, h: 300, source: (1000, 500), scaled: (600, 300), output: (600, 300)),
        Case(mode: 4, w: 400, h: 300, source: (500, 1000), scaled: (300, 600), output: (300, 600)),
        // mode 5: mode 4 then centre-crop to long W × short H.
        Case(mode: 5, w: 400, h: 300, source: (1000, 500), scaled: (600, 300), output: (400, 300)),
        Case(mode: 5, w: 400, h: 300, source: (500, 1000), scaled: (300, 600), output: (300, 400)),
        // Never upscale.
        Case(mode: 2, w: 4000, h: 3000, source: (1000, 500), scaled: (1000, 500), output: (1000, 500)),
        Case(mode: 1, w: 2000, h: 2000, source: (1000, 500), scaled: (1000, 500), output: (1000, 500)),
        Case(mode: 3, w: 4000, h: nil, source: (1000, 500), scaled: (1000, 500), output: (1000, 500)),
        // One side alone for modes 3 and 4: a square box, as for 1 and 5.
        Case(mode: 3, w: 300, h: nil, source: (1000, 600), scaled: (500, 300), output: (500, 300)),
        Case(mode: 4, w: 300, h: nil, source: (1000, 600), scaled: (500, 300), output: (500, 300)),
        Case(mode: 0, w: nil, h: nil, source: (1000, 500), scaled: (1000, 500), output: (1000, 500)),
    ]

    @Test(arguments: cases)
    func imageView2Modes(_ c: Case) {
        let geometry = ThumbnailGeometry.imageView2(
            ImageView2(mode: c.mode, width: c.w, height: c.h), width: c.source.0, height: c.source.1)
        #expect(geometry.scaledWidth == c.scaled.0 && geometry.scaledHeight == c.scaled.1)
        #expect(geometry.outputWidth == c.output.0 && geometry.outputHeight == c.output.1)
    }

    @Test func mogrThumbnails() {
        #expect(ThumbnailGeometry.thumbnail(.width(250), width: 1000, height: 500).outputHeight == 125)
        #expect(ThumbnailGeometry.thumbnail(.height(100), width: 1000, height: 500).outputWidth == 200)
        let fit = ThumbnailGeometry.thumbnail(.fit(width: 300, height: 300), width: 1000, height: 500)
        #expect(fit.outputWidth == 300 && fit.outputHeight == 150)
        let half = ThumbnailGeometry.thumbnail(.percent(50), width: 1001, height: 501)
        #expect(half.outputWidth == 501 && half.outputHeight == 251)
        // imageMogr2 enlarges unless the form says otherwise.
        #expect(ThumbnailGeometry.thumbnail(.width(5000), width: 1000, height: 500).outputWidth == 5000)
        #expect(
            ThumbnailGeometry.thumbnail(.shrinkToFit(width: 5000, height: 5000), width: 1000, height: 500).outputWidth
                == 1000)
    }
}

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct StyleSheetTests {
    @Test func parsesAndMatchesStyleSuffixes() throws {
        let sheet = try StyleSheet(
            json: Data(
                (#"{"separator": "-", "styles": {"WebPiOSW750": "imageView2/2/w/750/format/webp","#
                    + #" "thumb": "imageMogr2/thumbnail/!50p"}}"#).utf8))
        let match = try #require(sheet.match("/photos/a-b.jpg-WebPiOSW750"))
        #expect(match.filePath == "/photos/a-b.jpg" && match.style == "WebPiOSW750")
        #expect(match.pipeline.outputFormat == .webp)
        #expect(sheet.match("/photos/a.jpg-unknown") == nil)
        #expect(sheet.match("/photos/a.jpg") == nil)
    }

    @Test(arguments: [
        #"{"styles": {"bad": "imageView2/9"}}"#,
        #"{"separator": "+", "styles": {}}"#,
        #"{"styles": {"a b": "imageView2/0"}}"#,
        #"not json"#,
    ])
    func badFilesFailAtLoadNamingTheProblem(_ json: String) {
        #expect(throws: StyleSheetError.self) { try StyleSheet(json: Data(json.utf8)) }
    }
}
