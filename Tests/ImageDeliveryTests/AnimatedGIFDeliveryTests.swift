import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The core's one decision for an animated GIF a rule converts, given to a
/// client that shows neither WebP nor AVIF: still an animation, and the
/// smaller on the wire of the bridge's APNG (transcoded from the animated
/// WebP variant) and the original GIF.
@Suite(.timeLimit(.suiteBound))
struct AnimatedGIFDeliveryTests {
    static let url = URL(string: "http://img.test/scene.gif")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A photographic animation: every frame a different noisy photo, so the
    /// APNG of its lossy WebP frames is large and the 256-colour GIF smaller.
    static func photographic() -> AnimatedImage {
        let frames = (0..<6).map { seed in
            AnimatedImage.Frame(
                image: SyntheticImages.photo(width: 96, height: 64, seed: seed + 20), durationMilliseconds: 100)
        }
        return AnimatedImage(canvasWidth: 96, canvasHeight: 64, frames: frames, loopCount: 0)
    }

    /// A flat graphic: two colours, so its lossless WebP's APNG is tiny.
    static func flat() -> AnimatedImage {
        let frames = (0..<6).map { frame in
            AnimatedImage.Frame(
                image: Image(width: 96, height: 64, filledWith: (UInt8(40 * frame), 90, 200, 255)),
                durationMilliseconds: 100)
        }
        return AnimatedImage(canvasWidth: 96, canvasHeight: 64, frames: frames, loopCount: 0)
    }

    /// A CDN answering `format/webp` with `variant` and anything else with `original`.
    static func bridge(variant: Data, original: Data) throws -> (ImageBridge, ScriptedDataLoader) {
        try bridge(variant: variant, originalAnswer: .ok(original, fields: ["cache-control": "max-age=60"]))
    }

    static func bridge(
        variant: Data, originalAnswer: ScriptedDataLoader.Answer
    ) throws -> (ImageBridge, ScriptedDataLoader) {
        let cached: HTTPFieldList = ["cache-control": "max-age=60"]
        let upstream = ScriptedDataLoader(answering: originalAnswer)
        upstream.inject(.ok(variant, fields: cached), whereURLContains: "format/webp")
        let rules = RewriteConfiguration(rules: [
            RewriteRule(
                name: "cdn", hosts: ["img.test"], dialect: .qiniu(QiniuOptions()), width: 96, convertsGIF: true,
                formats: [.avif, .webp])
        ])
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: try Rewriter(configuration: rules), dataLoader: upstream, memoryCache: nil, now: { Self.now })
        )
        return (ImageBridge(pipeline: pipeline), upstream)
    }

    static func answer(_ bridge: ImageBridge, accept: String?) async throws -> (Data, ImageFormat) {
        guard case .image(let plan) = bridge.route(DeliveryRequest(url: url, accept: accept)) else {
            Issue.record("not claimed for \(accept ?? "no Accept")")
            throw CancellationError()
        }
        let delivery = await bridge.deliver(plan)
        guard case .image(let body, let format) = delivery.content else {
            Issue.record("not an image: \(delivery.content)")
            throw CancellationError()
        }
        return (body, format)
    }

    @Test func aPhotographicGIFReachesALegacyClientAsTheOriginalGIF() async throws {
        let animation = Self.photographic()
        let gif = try GIFEncoder().encode(animation)
        let webP = try WebPEncoder().encode(animation)
        let (bridge, upstream) = try Self.bridge(variant: webP, original: gif)
        let apng = try Transcoder(codec: CImageCodec()).transcode(webP, for: Transcoder.withoutWebP).data

        let legacy = try await Self.answer(bridge, accept: "image/*")
        #expect(legacy.1 == .gif)
        #expect(legacy.0 == gif)
        #expect(gif.count < apng.count, "GIF \(gif.count) B, APNG \(apng.count) B")
        #expect(try ImageInfo(legacy.0).frames == 6)
        // A WebP client and an AVIF client (no AVIF variant for a GIF) get the animated WebP.
        for accept in ["image/webp,*/*", "image/avif,image/webp,*/*"] {
            let answer = try await Self.answer(bridge, accept: accept)
            #expect(answer.1 == .webp && answer.0 == webP, "\(accept)")
        }
        // Asked again, the kept answer: no second fetch of the original.
        let originalFetches = upstream.requests.filter { $0.url == Self.url }.count
        #expect(originalFetches == 1)
        _ = try await Self.answer(bridge, accept: "image/*")
        #expect(upstream.requests.filter { $0.url == Self.url }.count == originalFetches)
        #expect(!upstream.requests.contains { $0.url.absoluteString.contains("format/avif") })
    }

    @Test func aFlatGIFReachesALegacyClientAsTheSmallerAPNG() async throws {
        let animation = Self.flat()
        // An original padded with noise frames: larger than the APNG of the flat variant.
        var padded = animation
        padded.frames += (0..<4).map { seed in
            AnimatedImage.Frame(
                image: SyntheticImages.photo(width: 96, height: 64, seed: seed), durationMilliseconds: 100)
        }
        let gif = try GIFEncoder().encode(padded)
        let webP = try WebPEncoder(options: .init(lossless: true)).encode(animation)
        let (bridge, _) = try Self.bridge(variant: webP, original: gif)

        let legacy = try await Self.answer(bridge, accept: "image/*")
        #expect(legacy.1 == .apng)
        #expect(legacy.0.count < gif.count, "APNG \(legacy.0.count) B, GIF \(gif.count) B")
        #expect(try ImageInfo(legacy.0).frames == 6)
    }

    /// An original that cannot be had (an error page, a page that is not an
    /// image) leaves the APNG: the client still gets an animation.
    @Test func anOriginalThatIsNotAGIFLeavesTheAPNG() async throws {
        let webP = try WebPEncoder().encode(Self.photographic())
        let answers: [ScriptedDataLoader.Answer] = [
            .response(status: 404, fields: ["content-type": "text/html"], body: Data("<html>gone</html>".utf8)),
            .ok(try PNGEncoder().encode(SyntheticImages.photo(width: 8, height: 8, seed: 1))),
        ]
        for answer in answers {
            let (bridge, _) = try Self.bridge(variant: webP, originalAnswer: answer)
            let legacy = try await Self.answer(bridge, accept: "image/*")
            #expect(legacy.1 == .apng)
            #expect(try ImageInfo(legacy.0).frames == 6)
        }
    }

    /// A flood of legacy clients asking at once for the same GIF: one
    /// transcode, one fetch of the original, every client the GIF.
    @Test func concurrentLegacyClientsShareOneComparison() async throws {
        let animation = Self.photographic()
        let gif = try GIFEncoder().encode(animation)
        let (bridge, upstream) = try Self.bridge(variant: try WebPEncoder().encode(animation), original: gif)
        let answers = try await withThrowingTaskGroup(of: (Data, ImageFormat).self) { group in
            for _ in 0..<24 { group.addTask { try await Self.answer(bridge, accept: "image/*") } }
            var answers: [(Data, ImageFormat)] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers.count == 24)
        #expect(answers.allSatisfy { $0.1 == .gif && $0.0 == gif })
        #expect(upstream.requests.filter { $0.url == Self.url }.count == 1)
    }
}
