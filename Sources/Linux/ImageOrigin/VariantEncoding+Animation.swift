public import Foundation
public import WebPBridge

extension VariantEncoding {
    /// An animated WebP and how it was written.
    public struct EncodedAnimation: Sendable {
        public var data: Data
        /// The quality the lossy frames were written at when a search ran
        /// (the search's, or ``VariantEncoding/quality`` when libwebp's
        /// lossy-or-lossless frames at that quality were kept); `nil` when
        /// none ran.
        public var searchedQuality: Int?
        /// Whether every frame was written whole, because the changed
        /// rectangles drifted (``driftAllowance``).
        public var keyFramesOnly: Bool
    }

    /// How many frames of an animation are looked at, to search its quality
    /// and to check it for drift: the first, the middle and the last, so a
    /// scene that changes part way (a cut, a fade) is seen and drift, which
    /// grows frame by frame, is caught where it is largest, while the checks
    /// stay a small part of the animation's encode.
    public static let sampledFrames = 3

    /// How many SSIMULACRA 2 points a sampled frame of an animation written
    /// as changed rectangles may score below the same frame written as a key
    /// frame at the same quality (``keyFrame(_:)``) before the animation is
    /// written again with whole frames. A lossy rectangle leaves out pixels
    /// within a few levels of the previous source frame, so a slow pan or
    /// fade drifts (``WebPEncoder/Options/keyFramesOnly``). Measured with
    /// `convert` (lossy frames) at q40–95 (docs/benchmarks.md, "Animated
    /// WebP: drift"): where nothing drifted, the middle and last frames
    /// scored within 1.3 points of their key frames, above or below; drift
    /// showed as 2.0 and more: the demo's photographic GIF by 2.4 at q80,
    /// 13 at q70 and 47 at q60, the corpus's `chi.gif` by 2.0 at q80 and
    /// 3.1–4.5 at q40–70, `iss634.gif` by 15 at q40. At 2.5 the mild drift
    /// at q80 is left as it is, for the bytes whole frames can cost on
    /// graphics (`chi.gif`: 5 times as many).
    public static let driftAllowance = 2.5

    /// The number of colours from which libwebp's animation encoder, allowed
    /// to mix lossy and lossless frames, no longer tries a frame lossless:
    /// it counts the colours of each changed rectangle and tries lossless
    /// below 194 and lossy from 31 (`MAX_COLORS_LOSSLESS` and
    /// `MIN_COLORS_LOSSY` in libwebp 1.2.4's `src/mux/anim_encode.c`,
    /// `GenerateCandidates`).
    public static let mixedLosslessColourLimit = 194

    /// `content`, or ``Content/photo`` for a graphic whose sampled frames
    /// (as the encoder gets them, resized) each have at least
    /// ``mixedLosslessColourLimit`` colours. A GIF is a graphic by its
    /// format, but a photographic one (frames cut from a video, a pan over
    /// a photo) has a full palette, and once resized thousands of colours.
    /// libwebp, allowed to mix, tries a changed rectangle lossless only
    /// below the limit, so where frames change over most of the picture the
    /// mixed encoding is a second lossy encoding at the fixed quality: the
    /// demo's photographic GIF at q80 was 216,928 B mixed against 215,916 B
    /// lossy, for as much CPU again. Counting stops at the limit:
    /// microseconds for a photo, one pass over three frames for a graphic.
    static func content(_ content: Content, sampledFrames frames: [Image]) -> Content {
        guard content == .graphic, !frames.isEmpty,
            frames.allSatisfy({ hasColours(atLeast: mixedLosslessColourLimit, $0) })
        else { return content }
        return .photo
    }

    /// The most output pixel-frames (canvas pixels times frames) an
    /// animated graphic gets the mixed encoding for: 3.2 M, 24 frames of
    /// 480×270. With it a GIF counts 17 units a pixel and frame
    /// (docs/work-budget.md), so the default work budget holds about that
    /// many, searched or not; a longer graphic is written lossy only (10
    /// units) rather than refused. A rule of the encoding, not a limit: the
    /// same request gives the same bytes whatever the budgets.
    public static let maxMixedEncodingPixelFrames = 3_200_000

    /// Whether an animation holding `content`, of `pixelFrames` output
    /// pixels times frames, is also encoded with libwebp's per-frame choice
    /// of lossy or lossless (`allow_mixed`), beside lossy: a graphic, when
    /// lossless is tried, up to ``maxMixedEncodingPixelFrames``. The
    /// encoding's rule and the origin's work budget (from the headers)
    /// ask it alike.
    static func makesMixedEncoding(of content: Content, triesLossless: Bool, pixelFrames: Int) -> Bool {
        triesLossless && content == .graphic && pixelFrames <= maxMixedEncodingPixelFrames
    }

    /// `pixels` times `frames`, or `Int.max` when that overflows.
    static func pixelFrames(_ pixels: Int, frames: Int) -> Int {
        let product = pixels.multipliedReportingOverflow(by: frames)
        return product.overflow ? .max : product.partialValue
    }

    /// Whether `image` has at least `limit` distinct colours (RGBA, as
    /// libwebp counts them).
    static func hasColours(atLeast limit: Int, _ image: Image) -> Bool {
        var colours = Set<UInt32>(minimumCapacity: limit)
        return image.pixels.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: image.pixelCount * 4, by: 4) {
                colours.insert(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                if colours.count >= limit { return true }
            }
            return false
        }
    }

    /// The frames of an animation of `count` frames (as its headers tell)
    /// that are sampled: the first, the middle and the last, each once.
    static func sampledFrameIndices(count: Int) -> [Int] {
        guard count > 1 else { return [0] }
        var indices: [Int] = []
        for index in [0, count / 2, count - 1] where !indices.contains(index) { indices.append(index) }
        return indices
    }

    /// The animated WebP of `animation`: its changed rectangles, lossy, or
    /// for a graphic the smaller of that and libwebp's choice of lossy or
    /// lossless frame by frame (at ``quality``, searched or not); written
    /// again with whole lossy frames at the quality of the one kept when a
    /// sampled frame drifts past ``driftAllowance``. With `search`, the
    /// lossy frames are at the highest quality `search` chooses for a
    /// sampled frame written as a key frame
    /// (``searchedQuality(of:searching:_:)``); at ``quality`` otherwise.
    ///
    /// The frames are visited once to sample them (at most
    /// ``sampledFrames`` held), once per encoding, and the encoding's
    /// frames once to check for drift. An animation whose frames are too
    /// small to score is never found drifting, and a search writes it at
    /// the ceiling.
    ///
    /// - Parameters:
    ///   - content: What the source holds; see ``content(ofAnimation:format:)``.
    ///     A graphic whose sampled frames have too many colours for libwebp
    ///     to try them lossless is written as a photo
    ///     (``content(_:sampledFrames:)``).
    ///   - limits: What reading the encoding back may take (the caller's, which
    ///     let the source through).
    ///   - beforeMixedEncoding: Called once the sampled frames show a
    ///     graphic that will have a mixed encoding, before anything is
    ///     encoded; what it throws ends the encoding (the origin's work
    ///     budget, which counts the mixed encoding only then:
    ///     ``ImageTransformer/Cost/mixedEncodingWorkPixels``).
    /// - Throws: ``ImageCodecError`` from decoding the frames, the encoder,
    ///   decoding what it wrote, or `beforeMixedEncoding`.
    public func encode(
        _ animation: some AnimationFrames, content: Content, searching search: QualitySearch? = nil,
        scorerPlanes: SSIMULACRA2.PlanePool? = nil, limits: DecodingLimits = .default,
        beforeMixedEncoding: () throws(ImageCodecError) -> Void = {}
    ) throws(ImageCodecError) -> EncodedAnimation {
        let samples = try Self.frames(Self.sampledFrameIndices(count: animation.frameCount), of: animation)
        let sampledImages = samples.map(\.image)
        let content = Self.content(content, sampledFrames: sampledImages)
        let mixes = Self.makesMixedEncoding(
            of: content, triesLossless: triesLossless,
            pixelFrames: Self.pixelFrames(animation.canvasWidth * animation.canvasHeight, frames: animation.frameCount))
        // Before any encode, so a refusal costs only the visit that sampled the frames.
        if mixes { try beforeMixedEncoding() }
        var encoding = self
        if let search {
            encoding.quality = try Self.searchedQuality(of: sampledImages, searching: search) {
                (image, search) throws(ImageCodecError) in
                try search.run(against: image, scorerPlanes: scorerPlanes) { (quality: Int) throws(ImageCodecError) in
                    var trial = self
                    trial.quality = quality
                    return try trial.keyFrame(image)
                } decode: { (data: Data) throws(ImageCodecError) in
                    try WebPDecoder().decode(data)
                }.quality
            }
        }
        let rectangles = try encoding.changedRectangles(animation, mixing: mixes, mixedAt: quality)
        var chosen = encoding
        chosen.quality = rectangles.quality
        let searchedQuality = search == nil ? nil : chosen.quality
        guard try chosen.drifts(rectangles.data, from: samples, scorerPlanes: scorerPlanes, limits: limits) else {
            return EncodedAnimation(data: rectangles.data, searchedQuality: searchedQuality, keyFramesOnly: false)
        }
        var options = chosen.lossyOptions
        options.keyFramesOnly = true
        let whole = try WebPEncoder(options: options).encode(animation)
        return EncodedAnimation(data: whole, searchedQuality: searchedQuality, keyFramesOnly: true)
    }

    /// The highest of the qualities `search` chooses for each of `frames`
    /// (`searchFrame` runs one search and returns its quality), so every frame reaches the
    /// target or is at the ceiling. Each frame after the first is searched
    /// from the quality the earlier ones needed, up: one that passes there
    /// costs one encode. No frames: the ceiling.
    static func searchedQuality(
        of frames: [Image], searching search: QualitySearch,
        _ searchFrame: (Image, QualitySearch) throws(ImageCodecError) -> Int
    ) throws(ImageCodecError) -> Int {
        var quality: Int?
        for image in frames where quality != search.qualities.upperBound {
            let remaining =
                quality.map {
                    QualitySearch(
                        target: search.target, qualities: $0...search.qualities.upperBound, model: search.model,
                        start: $0)
                } ?? search
            quality = try searchFrame(image, remaining)
        }
        return quality ?? search.qualities.upperBound
    }

    /// A frame of an animation and when it is first shown, in milliseconds
    /// from the start, counted as the encoder counts it
    /// (``WebPEncoder/writtenDuration(of:)``).
    struct TimedFrame {
        var start: Int
        var image: Image
    }

    /// Calls `body` with each frame of `animation`, its index and when it
    /// is shown (from its start to the next frame's), in one visit.
    private static func visit(
        _ animation: some AnimationFrames, _ body: (_ index: Int, _ shown: Range<Int>, _ image: Image) -> Void
    ) throws(ImageCodecError) {
        var (index, start) = (0, 0)
        try animation.forEachFrame { (frame) throws(ImageCodecError) in
            let end = start + WebPEncoder.writtenDuration(of: frame)
            body(index, start..<end, frame.image)
            (index, start) = (index + 1, end)
        }
    }

    /// The frames of `animation` at `indices`, in one visit that holds no
    /// other frame.
    static func frames(_ indices: [Int], of animation: some AnimationFrames) throws(ImageCodecError) -> [TimedFrame] {
        var found: [TimedFrame] = []
        try visit(animation) { index, shown, image in
            if indices.contains(index) { found.append(TimedFrame(start: shown.lowerBound, image: image)) }
        }
        return found
    }

    /// What `animation` shows at each of `times` (ascending), in one visit:
    /// libwebp's encoder merges a frame into the one before when nothing
    /// changed, so a frame's index in what it wrote is not the source's.
    static func frames(shownAt times: [Int], of animation: some AnimationFrames) throws(ImageCodecError) -> [Image] {
        var found: [Image] = []
        try visit(animation) { _, shown, image in
            while found.count < times.count, times[found.count] < shown.upperBound { found.append(image) }
        }
        return found
    }

    /// The animation as changed rectangles, and the quality of its lossy
    /// frames: lossy at ``quality``, or when `mixing` (a graphic that gets
    /// the mixed encoding, ``makesMixedEncoding(of:triesLossless:pixelFrames:)``)
    /// the smaller of that and an encoding at `mixedQuality` where libwebp
    /// writes each frame lossy or lossless, whichever is smaller for that
    /// frame. A search
    /// passes the fixed quality as `mixedQuality`: the mixed encoding is not
    /// always smaller at a lower quality (a lossy frame makes the next
    /// frame's difference noisier; the demo's 12-frame badge was 4,684 B at
    /// q30 against 4,656 B at q80), so a searched graphic is never bigger
    /// than the fixed quality's.
    private func changedRectangles(
        _ animation: some AnimationFrames, mixing: Bool, mixedAt mixedQuality: Int
    ) throws(ImageCodecError) -> (data: Data, quality: Int) {
        let lossy = try WebPEncoder(options: lossyOptions).encode(animation)
        guard mixing else { return (lossy, quality) }
        var mixedEncoding = self
        mixedEncoding.quality = mixedQuality
        var options = mixedEncoding.lossyOptions
        options.allowMixed = true
        let mixed = try WebPEncoder(options: options).encode(animation)
        return mixed.count < lossy.count ? (mixed, mixedQuality) : (lossy, quality)
    }

    /// Whether a sampled frame after the first of `encoded` (an animated
    /// WebP of the sampled animation) scores more than ``driftAllowance`` below the
    /// same frame written as a lossy key frame at ``quality``
    /// (``keyFrame(_:)``), each against the source frame.
    private func drifts(
        _ encoded: Data, from samples: [TimedFrame], scorerPlanes: SSIMULACRA2.PlanePool?,
        limits: DecodingLimits
    ) throws(ImageCodecError) -> Bool {
        // The first frame is drawn over nothing, so it is written whole either way and cannot drift.
        let scored = samples.filter {
            $0.start > 0 && QualitySearch.canScore(width: $0.image.width, height: $0.image.height)
        }
        guard !scored.isEmpty, let reader = try AnimationReader(encoded, limits: limits) else { return false }
        let shown = try Self.frames(shownAt: scored.map(\.start), of: reader)
        guard shown.count == scored.count else {
            throw ImageCodecError(.encodingFailed, format: .webp, "the animation encoder wrote a shorter animation")
        }
        for (sample, frame) in zip(scored, shown) {
            let scorer = try SSIMULACRA2.Scorer(sample.image, pool: scorerPlanes)
            let key = try scorer.score(WebPDecoder().decode(keyFrame(sample.image)))
            if try scorer.score(frame) < key - Self.driftAllowance { return true }
        }
        return false
    }

    /// `image` as libwebp's animation encoder writes a lossy key frame at
    /// ``quality``: a one-frame animation, which libwebp 1.2.4 writes as a
    /// still file (``WebPDecoder/decode(_:)`` reads either). Not the same bytes as a still
    /// at the same settings: on the demo's photographic GIF a key frame is
    /// about 5% smaller and scores about a point lower than the still, so
    /// the search and the drift check measure what the animation shows.
    func keyFrame(_ image: Image) throws(ImageCodecError) -> Data {
        let single = AnimatedImage(
            canvasWidth: image.width, canvasHeight: image.height,
            frames: [AnimatedImage.Frame(image: image, durationMilliseconds: 100)], loopCount: 0)
        return try WebPEncoder(options: lossyOptions).encode(single)
    }
}
