import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import ImageOrigin

/// Animated WebP variants: the frames sampled, the quality searched on
/// them, and drift caught and written away with whole frames, on generated
/// animations (so it runs without the corpus).
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct AnimationEncodingTests {
    static func animation(_ images: [Image], milliseconds: [Int]? = nil) -> AnimatedImage {
        let frames = images.enumerated().map { index, image in
            AnimatedImage.Frame(image: image, durationMilliseconds: milliseconds?[index] ?? 100)
        }
        return AnimatedImage(
            canvasWidth: images[0].width, canvasHeight: images[0].height, frames: frames, loopCount: 0)
    }

    @Test func theSampledFramesAreTheFirstTheMiddleAndTheLast() {
        #expect(VariantEncoding.sampledFrameIndices(count: 0) == [0])
        #expect(VariantEncoding.sampledFrameIndices(count: 1) == [0])
        #expect(VariantEncoding.sampledFrameIndices(count: 2) == [0, 1])
        #expect(VariantEncoding.sampledFrameIndices(count: 3) == [0, 1, 2])
        #expect(VariantEncoding.sampledFrameIndices(count: 32) == [0, 16, 31])
        #expect(VariantEncoding.sampledFrameIndices(count: 32).count == VariantEncoding.sampledFrames)
    }

    /// Each frame after the first is searched from the quality the earlier
    /// ones needed, up; the answer is the highest; a frame at the ceiling
    /// ends it. Frames are told apart by their width.
    @Test func eachLaterFrameIsSearchedFromWhatTheEarlierOnesNeeded() throws {
        let search = QualitySearch(target: 65, qualities: 30...80, slope: 0.55, start: 66)
        let frames = (0..<3).map { Image(width: 8 + $0, height: 8, filledWith: (0, 0, 0, 255)) }
        func run(needs: [Int: Int]) throws -> (quality: Int, given: [(width: Int, search: QualitySearch)]) {
            var given: [(width: Int, search: QualitySearch)] = []
            let quality = try VariantEncoding.searchedQuality(of: frames, searching: search) { image, search in
                given.append((image.width, search))
                // The lowest passing quality within the range searched.
                return max(search.qualities.lowerBound, needs[image.width] ?? 0)
            }
            return (quality, given)
        }
        let rising = try run(needs: [8: 50, 9: 40, 10: 70])
        #expect(rising.quality == 70)
        #expect(rising.given.map(\.width) == [8, 9, 10])
        #expect(rising.given[0].search == search)
        #expect(rising.given[1].search.qualities == 50...80 && rising.given[1].search.start == 50)
        #expect(rising.given[2].search.qualities == 50...80 && rising.given[2].search.start == 50)
        #expect(rising.given.allSatisfy { $0.search.target == 65 && $0.search.model == .linear(slope: 0.55) })

        let atTheCeiling = try run(needs: [8: 80])
        #expect(atTheCeiling.quality == 80 && atTheCeiling.given.count == 1)
        #expect(try VariantEncoding.searchedQuality(of: [], searching: search) { _, _ in 30 } == 80)
    }

    /// libwebp's encoder merges a frame that changes nothing into the one
    /// before, so what it wrote is matched to the source by time.
    @Test func framesAreMatchedByWhenTheyAreShownNotByTheirIndex() throws {
        let first = SyntheticImages.photo(width: 40, height: 30, seed: 1)
        let second = SyntheticImages.photo(width: 40, height: 30, seed: 2)
        let source = Self.animation([first, first, second], milliseconds: [100, 0, 50])
        let sampled = try VariantEncoding.frames([0, 1, 2], of: source)
        #expect(sampled.map(\.start) == [0, 100, 101])
        #expect(sampled.map(\.image) == [first, first, second])

        let written = try WebPEncoder(options: .init(lossless: true)).encode(source)
        let reader = try #require(try AnimationReader(written))
        var durations: [Int] = []
        try reader.forEachFrame { durations.append($0.durationMilliseconds) }
        #expect(durations == [101, 50], "the unchanged frame is merged into the first")
        // Which source picture each frame shown is (the reader's frames are RGBA: pixels compared).
        func pictures(_ images: [Image]) -> [Int?] {
            images.map { image in [first, second].firstIndex { $0.pixels == image.pixels } }
        }
        #expect(try pictures(VariantEncoding.frames(shownAt: sampled.map(\.start), of: reader)) == [0, 0, 1])
        #expect(try pictures(VariantEncoding.frames(shownAt: [0, 151], of: reader)) == [0], "past the end: nothing")
    }

    /// A fade of 2 levels a frame at q60: the changed rectangles leave the
    /// last frame far below its key frame, so the animation is written with
    /// whole frames, which show it as the quality promises.
    @Test func aSlowFadeDriftsAndIsWrittenWithWholeFrames() throws {
        let fade = SyntheticImages.fade(width: 96, height: 64, frameCount: 16, step: 2)
        let encoding = VariantEncoding(quality: 60)
        let encoded = try encoding.encode(fade, content: .photo)
        #expect(encoded.keyFramesOnly && encoded.searchedQuality == nil)
        var whole = encoding.lossyOptions
        whole.keyFramesOnly = true
        #expect(try encoded.data == WebPEncoder(options: whole).encode(fade))

        let last = try #require(fade.frames.last).image
        let scorer = try SSIMULACRA2.Scorer(last)
        let key = try scorer.score(WebPDecoder().decode(encoding.keyFrame(last)))
        let rectangles = try WebPDecoder().decodeAnimation(WebPEncoder(options: encoding.lossyOptions).encode(fade))
        let drifted = try scorer.score(try #require(rectangles.frames.last).image)
        let shown = try scorer.score(try #require(WebPDecoder().decodeAnimation(encoded.data).frames.last).image)
        #expect(drifted < key - VariantEncoding.driftAllowance, "the fixture drifts: \(drifted) against \(key)")
        #expect(abs(shown - key) < 0.5, "\(shown) against \(key)")
    }

    /// A black square moving over a still textured photo: each frame's
    /// pixels stay exactly as they were or change a lot, so nothing drifts
    /// and the smaller changed-rectangle encoding is kept.
    @Test func anAnimationThatDoesNotDriftKeepsItsChangedRectangles() throws {
        let background = AutoQualityTests.textured(width: 160, height: 96)
        let frames = (0..<6).map { frame in
            var image = background
            let left = (160 - 24) * frame / 5
            for y in 16..<40 {
                for x in left..<(left + 24) {
                    image.pixels.replaceSubrange((y * 160 + x) * 4..<((y * 160 + x) * 4 + 3), with: [0, 0, 0])
                }
            }
            return image
        }
        let moving = Self.animation(frames)
        let encoding = VariantEncoding(quality: 60)
        let encoded = try encoding.encode(moving, content: .photo)
        #expect(!encoded.keyFramesOnly)
        #expect(try encoded.data == WebPEncoder(options: encoding.lossyOptions).encode(moving))
        var whole = encoding.lossyOptions
        whole.keyFramesOnly = true
        #expect(try encoded.data.count < WebPEncoder(options: whole).encode(moving).count)
    }

    /// An easy first frame and a hard last one: the animation is written at
    /// no less than either needs alone, and every frame is shown within the
    /// drift allowance of the target, or of its key frame at the chosen
    /// quality where that is lower (the ceiling's).
    @Test func aSearchedAnimationIsWrittenAtWhatItsHardestSampledFrameNeeds() throws {
        let easy = SyntheticImages.photo(width: 160, height: 120, seed: 2)
        let hard = AutoQualityTests.textured(width: 160, height: 120)
        let animation = Self.animation([easy, SyntheticImages.photo(width: 160, height: 120, seed: 3), hard])
        let target = 70.0
        let search = ImageTransformer.search(for: .webp, target: target, ceiling: 80)
        let encoding = VariantEncoding(quality: 80, triesLossless: false)
        func alone(_ image: Image) throws -> Int {
            try #require(encoding.encode(Self.animation([image]), content: .photo, searching: search).searchedQuality)
        }
        let (easyQuality, hardQuality) = (try alone(easy), try alone(hard))
        try #require(easyQuality < hardQuality, "the fixture's frames differ: \(easyQuality), \(hardQuality)")

        let encoded = try encoding.encode(animation, content: .photo, searching: search)
        let quality = try #require(encoded.searchedQuality)
        #expect(quality >= hardQuality && quality <= 80)
        let shown = try WebPDecoder().decodeAnimation(encoded.data).frames
        #expect(shown.count == 3)
        var chosen = encoding
        chosen.quality = quality
        for (source, frame) in zip(animation.frames, shown) {
            let scorer = try SSIMULACRA2.Scorer(source.image)
            let key = try scorer.score(WebPDecoder().decode(chosen.keyFrame(source.image)))
            let score = try scorer.score(frame.image)
            #expect(score >= min(target, key) - VariantEncoding.driftAllowance, "q\(quality): \(score), key \(key)")
        }
    }

    /// An image of `count` colours (at most 512), the first of them the background.
    static func image(colours count: Int) -> Image {
        var image = Image(width: 32, height: 16, filledWith: (0, 0, 0, 255))
        for index in 0..<count {
            image.pixels[index * 4] = UInt8(index % 256)
            image.pixels[index * 4 + 1] = UInt8(index / 256)
        }
        return image
    }

    /// A graphic is written as a photo when each sampled frame has as many
    /// colours as libwebp's animation encoder, allowed to mix, takes for
    /// lossy only (194); one frame under it keeps it a graphic, and a photo
    /// stays a photo.
    @Test func aGraphicWhoseSampledFramesAllHaveManyColoursIsAPhoto() {
        let limit = VariantEncoding.mixedLosslessColourLimit
        #expect(limit == 194)
        let (few, many) = (Self.image(colours: limit - 1), Self.image(colours: limit))
        #expect(!VariantEncoding.hasColours(atLeast: limit, few))
        #expect(VariantEncoding.hasColours(atLeast: limit, many))
        #expect(VariantEncoding.hasColours(atLeast: limit, Self.image(colours: 512)))
        #expect(VariantEncoding.content(.graphic, sampledFrames: [many, many, many]) == .photo)
        #expect(VariantEncoding.content(.graphic, sampledFrames: [many]) == .photo)
        #expect(VariantEncoding.content(.graphic, sampledFrames: [many, few, many]) == .graphic)
        #expect(VariantEncoding.content(.graphic, sampledFrames: [few]) == .graphic)
        #expect(VariantEncoding.content(.graphic, sampledFrames: []) == .graphic)
        #expect(VariantEncoding.content(.photo, sampledFrames: [few]) == .photo)
    }

    /// `beforeMixedEncoding` runs once for a graphic that gets the mixed
    /// encoding, never for a photo or without the lossless try, and what
    /// it throws ends the encoding.
    @Test func theMixedEncodingIsAnnouncedOnlyForAGraphicThatGetsIt() throws {
        let animation = Self.animation((0..<3).map { _ in Self.image(colours: 8) })
        func calls(_ encoding: VariantEncoding, _ content: VariantEncoding.Content) throws -> Int {
            var count = 0
            _ = try encoding.encode(animation, content: content) { count += 1 }
            return count
        }
        #expect(try calls(VariantEncoding(quality: 80), .graphic) == 1)
        #expect(try calls(VariantEncoding(quality: 80), .photo) == 0)
        #expect(try calls(VariantEncoding(quality: 80, triesLossless: false), .graphic) == 0)
        let refusal = ImageCodecError(.limitExceeded, format: nil, "over the budget")
        let thrown = #expect(throws: ImageCodecError.self) {
            try VariantEncoding(quality: 80).encode(animation, content: .graphic) { () throws(ImageCodecError) in
                throw refusal
            }
        }
        #expect(thrown?.message == "over the budget")
    }

    /// Past ``VariantEncoding/maxMixedEncodingPixelFrames`` a graphic gets
    /// no mixed encoding and the cost model counts none, so a long graphic
    /// is written lossy rather than refused; at the bound it gets one.
    @Test func aGraphicAnimationPastTheMixedEncodingsSizeIsWrittenLossy() throws {
        let bound = VariantEncoding.maxMixedEncodingPixelFrames
        #expect(VariantEncoding.makesMixedEncoding(of: .graphic, triesLossless: true, pixelFrames: bound))
        #expect(!VariantEncoding.makesMixedEncoding(of: .graphic, triesLossless: true, pixelFrames: bound + 1))
        // 160 flat frames of 200×100 are at the bound; 201 wide, past it.
        let flat = { (width: Int) in
            Self.animation(
                (0..<160).map { index in
                    Image(width: width, height: 100, filledWith: (index % 2 == 0 ? 200 : 40, 40, 40, 255))
                })
        }
        let refusal = ImageCodecError(.limitExceeded, format: nil, "the mixed encoding")
        #expect(throws: ImageCodecError.self, "announced at the bound") {
            try VariantEncoding(quality: 80).encode(flat(200), content: .graphic) { () throws(ImageCodecError) in
                throw refusal
            }
        }
        let encoding = VariantEncoding(quality: 80)
        let past = try encoding.encode(flat(201), content: .graphic) { () throws(ImageCodecError) in throw refusal }
        #expect(past.data == (try WebPEncoder(options: encoding.lossyOptions).encode(flat(201))))

        let cost = { (frames: Int) throws -> ImageTransformer.Cost in
            let info = ImageInfo(
                format: .gif, width: 480, height: 270, alpha: false, frames: frames, loopCount: 0, bytes: 1)
            return try ImageTransformer.cost(
                of: info, pipeline: try ProcessingParser.parse("imageMogr2/format/webp"), format: .webp,
                triesLossless: true, animationContent: .graphic)
        }
        // 24 frames of 480×270 are 3,110,400 pixel-frames, 25 are 3,240,000.
        #expect(try cost(24).mixedEncodingWorkPixels > 0 && cost(25).mixedEncodingWorkPixels == 0)
        #expect(try cost(45).workPixels <= DecodingLimits.serverWorkPixels)
    }

    /// A photographic GIF (every frame a different photo, on a full
    /// palette) is written as a photo, lossy only, once; libwebp allowed to
    /// mix would have made a second encoding no smaller (here 5,726 B
    /// against 5,332).
    @Test func aPhotographicGIFsVariantIsItsLossyEncoding() throws {
        let photos = (0..<3).map { SyntheticImages.photo(width: 160, height: 120, seed: $0 + 5) }
        let gif = try GIFEncoder().encode(Self.animation(photos))
        let reader = try #require(try AnimationReader(gif))
        let frames = try VariantEncoding.frames([0, 1, 2], of: reader).map(\.image)
        try #require(
            frames.allSatisfy { VariantEncoding.hasColours(atLeast: VariantEncoding.mixedLosslessColourLimit, $0) },
            "the fixture's frames have a full palette")
        #expect(VariantEncoding.content(.graphic, sampledFrames: frames) == .photo)
        let encoding = VariantEncoding(quality: 80)
        let lossy = try WebPEncoder(options: encoding.lossyOptions).encode(reader)
        var mixedOptions = encoding.lossyOptions
        mixedOptions.allowMixed = true
        #expect(try WebPEncoder(options: mixedOptions).encode(reader).count >= lossy.count)
        let encoded = try encoding.encode(reader, content: VariantEncoding.content(ofAnimation: gif, format: .gif))
        #expect(encoded.data == lossy)
    }

    /// Through the transformer: an animated GIF under `--quality auto` is
    /// an animated WebP at a searched quality, which its response names;
    /// the cost counts the search, and a fixed quality searches nothing.
    @Test func theOriginSearchesAnAnimatedGIFsQuality() throws {
        let gif = try GIFEncoder().encode(SyntheticImages.fade(width: 120, height: 90, frameCount: 6, step: 8))
        let pipeline = AutoQualityTests.pipeline(width: 120, format: .webp)
        let auto = AutoQualityTests.transformer(.auto(target: 60))
        let searched = try auto.transform(gif, pipeline: pipeline)
        let quality = try #require(searched.searchedQuality)
        #expect(searched.format == .webp && !searched.isSource && (30...80).contains(quality))
        #expect(searched.qualityFieldValue == String(quality))
        #expect(try #require(try AnimationReader(searched.data)).frameCount > 1)

        let fixed = AutoQualityTests.transformer(.fixed)
        let unsearched = try fixed.transform(gif, pipeline: pipeline)
        #expect(unsearched.searchedQuality == nil && unsearched.qualityFieldValue == nil)
        #expect(try #require(try AnimationReader(unsearched.data)).frameCount > 1)

        let searchCost = try auto.cost(of: gif, pipeline: pipeline)
        let fixedCost = try fixed.cost(of: gif, pipeline: pipeline)
        let pixels = 120 * 90
        #expect(
            searchCost.workPixels - fixedCost.workPixels
                == pixels * ImageTransformer.searchWorkPerPixel * VariantEncoding.sampledFrames)
        // The search scores with the drift check's scorer, which the fixed quality's cost holds already.
        #expect(searchCost.peakBytes == fixedCost.peakBytes)
    }
}
