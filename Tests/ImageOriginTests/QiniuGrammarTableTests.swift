import ImageOrigin
import TestTraits
import Testing

/// Sizes from Qiniu's documented rules, one row per rule or worked example,
/// each naming where it comes from. Qiniu's pages state the rules and
/// illustrate them with pictures rather than numbers; the rows with
/// numbers given in a document are Tencent Cloud CI's worked examples of
/// the same `imageView2` grammar, which it implements after Qiniu.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct QiniuGrammarTableTests {
    static let imageView2Page = "developer.qiniu.com/dora/1279/basic-processing-images-imageview2"
    static let zoomPage = "developer.qiniu.com/dora/8255/the-zoom"
    static let tencentImageView2Page = "cloud.tencent.com/document/api/1246/45370"

    struct Row: Sendable, CustomTestStringConvertible {
        var fop: String
        var source: (width: Int, height: Int)
        var output: (width: Int, height: Int)
        var citation: String
        var testDescription: String { "\(fop) on \(source.width)x\(source.height) [\(citation)]" }
    }

    static let imageView2Rows: [Row] = [
        Row(
            fop: "imageView2/1/w/500/h/400", source: (1000, 500), output: (500, 400),
            citation: "\(tencentImageView2Page): /1 example, 1000x500 → 800x400 → cropped 500x400"),
        Row(
            fop: "imageView2/2/w/500/h/400", source: (1000, 500), output: (500, 250),
            citation: "\(tencentImageView2Page): /2 example, 1000x500 → 500x250"),
        Row(
            fop: "imageView2/3/w/500/h/400", source: (1000, 500), output: (800, 400),
            citation: "\(tencentImageView2Page): /3 example, 1000x500 → 800x400"),
        Row(
            fop: "imageView2/0/w/400/h/300", source: (1000, 500), output: (400, 200),
            citation: "\(imageView2Page): mode 0, long edge ≤ LongEdge, short edge ≤ ShortEdge"),
        Row(
            fop: "imageView2/0/w/400/h/300", source: (500, 1000), output: (200, 400),
            citation: "\(imageView2Page): mode 0, long/short edges, not width/height"),
        Row(
            fop: "imageView2/0/h/100", source: (1000, 500), output: (200, 100),
            citation: "\(imageView2Page): mode 0, h alone bounds the short edge, the long edge adapts"),
        Row(
            fop: "imageView2/0/w/400", source: (500, 1000), output: (200, 400),
            citation: "\(imageView2Page): mode 0, w alone bounds the long edge, the short edge adapts"),
        Row(
            fop: "imageView2/1/w/300", source: (1200, 600), output: (300, 300),
            citation: "\(imageView2Page): mode 1, w or h alone means a square (正方图)"),
        Row(
            fop: "imageView2/2/w/250", source: (1000, 500), output: (250, 125),
            citation: "\(imageView2Page): mode 2, w alone bounds the width, the height adapts"),
        Row(
            fop: "imageView2/2/h/250", source: (1000, 500), output: (500, 250),
            citation: "\(imageView2Page): mode 2, h alone bounds the height, the width adapts"),
        Row(
            fop: "imageView2/3/w/300", source: (1000, 600), output: (500, 300),
            citation: "\(imageView2Page): mode 3, w or h alone limits both to the same value (issue #13's case)"),
        Row(
            fop: "imageView2/3/h/300", source: (1000, 600), output: (500, 300),
            citation: "\(imageView2Page): mode 3, h alone limits both to the same value"),
        Row(
            fop: "imageView2/4/w/400/h/300", source: (1000, 500), output: (600, 300),
            citation: "\(imageView2Page): mode 4, long edge ≥ LongEdge, short edge ≥ ShortEdge"),
        Row(
            fop: "imageView2/4/w/300", source: (1000, 600), output: (500, 300),
            citation: "\(imageView2Page): mode 4, w or h alone limits long and short edge to the same value"),
        Row(
            fop: "imageView2/4/h/300", source: (600, 1000), output: (300, 500),
            citation: "\(imageView2Page): mode 4, the same on a portrait source"),
        Row(
            fop: "imageView2/5/w/400/h/300", source: (500, 1000), output: (300, 400),
            citation: "\(imageView2Page): mode 5, mode 4 then the part outside long×short cropped"),
        Row(
            fop: "imageView2/5/w/300", source: (1000, 600), output: (300, 300),
            citation: "\(imageView2Page): mode 5, w or h alone limits both edges to the same value"),
        Row(
            fop: "imageView2/1/w/1080/h/636", source: (256, 256), output: (256, 256),
            citation: "\(imageView2Page): note 2, never larger than the source"),
        Row(
            fop: "imageView2/2/w/4000/h/3000", source: (1000, 500), output: (1000, 500),
            citation: "\(imageView2Page): note 2, always shrinks"),
        Row(
            fop: "imageView2/3/w/4000", source: (1000, 500), output: (1000, 500),
            citation: "\(imageView2Page): note 2, a minimum box larger than the source keeps it"),
    ]

    static let thumbnailRows: [Row] = [
        Row(
            fop: "imageMogr2/thumbnail/!50p", source: (1000, 500), output: (500, 250),
            citation: "\(zoomPage): !<Scale>p, both sides by the percentage"),
        Row(
            fop: "imageMogr2/thumbnail/!200p", source: (1000, 500), output: (2000, 1000),
            citation: "\(zoomPage): !<Scale>p, Scale 1-999"),
        Row(
            fop: "imageMogr2/thumbnail/!50px", source: (1000, 500), output: (500, 500),
            citation: "\(zoomPage): !<Scale>px, the width by the percentage, the height unchanged"),
        Row(
            fop: "imageMogr2/thumbnail/!x50p", source: (1000, 500), output: (1000, 250),
            citation: "\(zoomPage): !x<Scale>p, the height by the percentage, the width unchanged"),
        Row(
            fop: "imageMogr2/thumbnail/300x", source: (1000, 500), output: (300, 150),
            citation: "\(zoomPage): <Width>x, the width given, the height proportional"),
        Row(
            fop: "imageMogr2/thumbnail/2000x", source: (1000, 500), output: (2000, 1000),
            citation: "\(zoomPage): <Width>x enlarges (no > given)"),
        Row(
            fop: "imageMogr2/thumbnail/x250", source: (1000, 500), output: (500, 250),
            citation: "\(zoomPage): x<Height>, the height given, the width proportional"),
        Row(
            fop: "imageMogr2/thumbnail/300x300", source: (1000, 500), output: (300, 150),
            citation: "\(zoomPage): <Width>x<Height>, the largest proportional size inside the box"),
        Row(
            fop: "imageMogr2/thumbnail/3000x3000", source: (1000, 500), output: (3000, 1500),
            citation: "\(zoomPage): <Width>x<Height> enlarges (no > given)"),
        Row(
            fop: "imageMogr2/thumbnail/300x300>", source: (1000, 500), output: (300, 150),
            citation: "\(zoomPage): <Width>x<Height>>, shrinks"),
        Row(
            fop: "imageMogr2/thumbnail/3000x3000>", source: (1000, 500), output: (1000, 500),
            citation: "\(zoomPage): <Width>x<Height>>, never enlarges"),
        Row(
            fop: "imageMogr2/thumbnail/3000x3000<", source: (1000, 500), output: (3000, 1500),
            citation: "\(zoomPage): <Width>x<Height><, enlarges"),
        Row(
            fop: "imageMogr2/thumbnail/300x300<", source: (1000, 500), output: (1000, 500),
            citation: "\(zoomPage): <Width>x<Height><, never shrinks"),
        Row(
            fop: "imageMogr2/thumbnail/!300x300r", source: (1000, 500), output: (600, 300),
            citation: "\(zoomPage): !<Width>x<Height>r, the smallest proportional size covering the box"),
        Row(
            fop: "imageMogr2/thumbnail/!3000x3000r", source: (1000, 500), output: (6000, 3000),
            citation: "\(zoomPage): !<Width>x<Height>r enlarges"),
        Row(
            fop: "imageMogr2/thumbnail/300x200!", source: (1000, 500), output: (300, 200),
            citation: "\(zoomPage): <Width>x<Height>!, exactly, the aspect ratio ignored"),
        Row(
            fop: "imageMogr2/thumbnail/125000@", source: (1000, 500), output: (500, 250),
            citation: "\(zoomPage): <Area>@, at most Area pixels"),
        Row(
            fop: "imageMogr2/thumbnail/2000000@", source: (1000, 500), output: (2000, 1000),
            citation: "\(zoomPage): <Area>@ enlarges to the area"),
        Row(
            fop: "imageMogr2/thumbnail/100000@", source: (1000, 500), output: (447, 223),
            citation: "\(zoomPage): <Area>@, sides rounded down so the area is not passed"),
    ]

    @Test(arguments: imageView2Rows + thumbnailRows)
    func documentedSizes(_ row: Row) throws {
        let pipeline = try ProcessingParser.parse(row.fop)
        let step = try #require(pipeline.steps.first)
        let geometry: ThumbnailGeometry
        switch step {
        case .imageView2(let view):
            geometry = ThumbnailGeometry.imageView2(view, width: row.source.width, height: row.source.height)
        case .imageMogr2(let mogr):
            let thumbnail = try #require(mogr.thumbnail)
            geometry = ThumbnailGeometry.thumbnail(thumbnail, width: row.source.width, height: row.source.height)
        }
        #expect(geometry.outputWidth == row.output.width && geometry.outputHeight == row.output.height, "\(geometry)")
        // The canonical form reads back to the same step.
        #expect(try ProcessingParser.parse(pipeline.canonicalForm) == pipeline)
    }

    @Test func everyRowHasACitationAndTheTableIsWhole() {
        let rows = Self.imageView2Rows + Self.thumbnailRows
        #expect(rows.allSatisfy { $0.citation.hasPrefix("developer.qiniu.com") || $0.citation.hasPrefix("cloud.") })
        // Every form of Qiniu's thumbnail table has a row.
        for form in [
            "!50p", "!50px", "!x50p", "300x", "x250", "300x300", "300x300>", "300x300<", "!300x300r", "300x200!",
        ] {
            #expect(rows.contains { $0.fop == "imageMogr2/thumbnail/\(form)" }, "\(form)")
        }
        #expect(rows.contains { $0.fop.hasSuffix("@") })
        // Every imageView2 mode has a row with one side alone.
        for mode in 0...5 {
            #expect(
                rows.contains {
                    $0.fop.hasPrefix("imageView2/\(mode)/") && !($0.fop.contains("/w/") && $0.fop.contains("/h/"))
                }, "mode \(mode)")
        }
    }

    @Test func enlargingPastQiniusOutputLimitIsRefusedByTheGeometry() {
        let huge = ThumbnailGeometry.thumbnail(.percent(999), width: 800, height: 600)
        #expect(huge.enlargementRefusal(fromWidth: 800, height: 600) != nil)
        let wide = ThumbnailGeometry.thumbnail(.exact(width: 9_999, height: 1), width: 1, height: 30_000)
        #expect(wide.enlargementRefusal(fromWidth: 1, height: 30_000) != nil, "the resizer's intermediate is bounded")
        let fine = ThumbnailGeometry.thumbnail(.percent(200), width: 800, height: 600)
        #expect(fine.enlargementRefusal(fromWidth: 800, height: 600) == nil)
        // A large source that is only shrunk is never refused for it.
        let shrink = ThumbnailGeometry.thumbnail(.width(12_000), width: 20_000, height: 2_000)
        #expect(shrink.enlargementRefusal(fromWidth: 20_000, height: 2_000) == nil)
    }

    @Test func distortingStepsDecodeLargeEnoughForBothSides() {
        let exact = ThumbnailGeometry.thumbnail(.exact(width: 100, height: 400), width: 800, height: 600)
        let box = exact.decodingBox(width: 800, height: 600)
        #expect(box.width >= 100 && box.height >= 400)
        let proportional = ThumbnailGeometry.thumbnail(.width(400), width: 800, height: 600)
        #expect(proportional.decodingBox(width: 800, height: 600) == (400, 300))
    }
}
