import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import ImageOrigin

/// Work in flight is charged to the memory budget and bounded in pixels:
/// issue 26, findings 9 (an enlarging pipeline past the budget) and 11 (a
/// 49 KB animation costing a minute of CPU).
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WorkBudgetTests {
    static let enlarging = "imageMogr2/thumbnail/4999x4999!|imageMogr2/thumbnail/4998x4998!"

    private func origin(
        _ files: [String: Data], _ configure: (inout ImageOrigin.Configuration) -> Void = { _ in }
    ) throws -> (TemporaryDirectory, ImageOrigin) {
        let folder = try TemporaryDirectory(prefix: "work-budget")
        for (name, data) in files { try data.write(to: folder.file(name)) }
        var configuration = ImageOrigin.Configuration(root: folder.url.path)
        configure(&configuration)
        return (folder, try ImageOrigin(configuration: configuration))
    }

    private func smallPNG() throws -> Data { try PNGEncoder().encode(SyntheticImages.photo(width: 64, height: 48)) }

    @Test func anEnlargementFollowedByAReductionIsOneResample() throws {
        let pipeline = try ProcessingParser.parse(Self.enlarging)
        let stages = ResampleStage.stages(of: pipeline, width: 64, height: 48)
        #expect(stages == [ResampleStage(width: 4998, height: 4998, columns: 0..<4998, rows: 0..<4998)])
    }

    @Test func aCropAfterAScalingIsARegionOfIt() throws {
        // Scale 800×600 to cover 300×300 (400×300), then crop the centre 300×300; then crop 100×100 of that.
        let pipeline = try ProcessingParser.parse("imageView2/1/w/300/h/300|imageView2/1/w/100/h/100")
        let stages = ResampleStage.stages(of: pipeline, width: 800, height: 600)
        #expect(stages.count == 2, "a scaling after a crop starts a stage: \(stages)")
        #expect(stages.first == ResampleStage(width: 400, height: 300, columns: 50..<350, rows: 0..<300))
        #expect(stages.last?.outputWidth == 100 && stages.last?.outputHeight == 100)
    }

    @Test func theComposedPipelineMakesTheSameSizeAsTheStepsOneByOne() async throws {
        let (folder, origin) = try origin(["small.png": try smallPNG()]) {
            $0.memoryBudget = ImageOrigin.MemoryBudget(totalBytes: 4 << 30)
            $0.transformer.limits.maxWorkPixels = 200_000_000
        }
        let response = await origin.get("/small.png?imageMogr2/thumbnail/2999x2999!|imageMogr2/thumbnail/2500x2500!")
        let body = response.bodyData
        #expect(response.status == .ok)
        let info = try ImageInfo(body)
        #expect(info.width == 2500 && info.height == 2500)
        _ = folder
    }

    @Test func aVariantThatCanNeverFitTheBudgetIs413() async throws {
        let (folder, origin) = try origin(["small.png": try smallPNG()])
        let source = try smallPNG()
        let cost = try origin.transformer.cost(of: source, pipeline: try ProcessingParser.parse(Self.enlarging))
        #expect(cost.peakBytes > origin.workInFlight.capacityBytes, "\(cost.peakBytes) B estimated")
        let response = await origin.get("/small.png?\(Self.enlarging)")
        #expect(response.status.code == 413)
        #expect(response.bodyText.contains("memory budget"), "\(response.bodyText)")
        #expect(origin.workInFlight.reservedBytes == 0)
        _ = folder
    }

    @Test func aVariantThatDoesNotFitBesideTheWorkInFlightWaitsForIt() async throws {
        let (folder, origin) = try origin(["small.png": try smallPNG()]) { $0.maxConcurrentTransforms = 2 }
        #expect(origin.workInFlight.maxWaiting == 1, "one fewer than the transformation threads")
        // Another transformation holds the whole share now.
        #expect(origin.workInFlight.reserve(origin.workInFlight.capacityBytes))
        let waiting = Task { await origin.get("/small.png?imageMogr2/thumbnail/640x480!") }
        await origin.workInFlight.waitUntil { $0.waiting == 1 }
        origin.workInFlight.release(origin.workInFlight.capacityBytes)
        let answer = await waiting.value
        #expect(answer.status == .ok)
        #expect(origin.workInFlight.reservedBytes == 0, "the reservation is given back")
        _ = folder
    }

    /// The line for memory is bounded: with the share taken, the first
    /// request waits (one thread of two) and every other is answered 503
    /// with `Retry-After` at once, however many come; when the memory comes
    /// back, the waiter is made.
    @Test func aFloodBeyondTheWaitingLineIs503WithRetryAfter() async throws {
        let (folder, origin) = try origin(["small.png": try smallPNG()]) {
            $0.maxConcurrentTransforms = 2
            $0.maxQueuedTransforms = 64
        }
        #expect(origin.workInFlight.reserve(origin.workInFlight.capacityBytes))
        let first = Task { await origin.get("/small.png?imageMogr2/thumbnail/640x480!") }
        await origin.workInFlight.waitUntil { $0.waiting == 1 }
        let refused = await withTaskGroup(of: HTTPResponse.self) { group in
            for index in 0..<40 {
                group.addTask { await origin.get("/small.png?imageMogr2/thumbnail/\(600 + index)x480!") }
            }
            var answers: [HTTPResponse] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
        #expect(refused.allSatisfy { $0.status.code == 503 && $0.headers["Retry-After"] == "1" })
        #expect(origin.workInFlight.waitingCount == 1)
        origin.workInFlight.release(origin.workInFlight.capacityBytes)
        #expect(await first.value.status == .ok)
        #expect(origin.workInFlight.reservedBytes == 0 && origin.workInFlight.waitingCount == 0)
        _ = folder
    }

    @Test func aThousandFrameAnimationIsRefusedFromItsHeaders() async throws {
        let animation = try SyntheticAnimatedWebP.make(canvasWidth: 1000, canvasHeight: 1000, frameCount: 1000)
        let info = try ImageInfo(animation)
        #expect(info.frames == 1000 && info.width == 1000)
        let (folder, origin) = try origin(["anim.webp": animation])
        let before = ProcessCPUTime.seconds()
        let response = await origin.get("/anim.webp?imageMogr2/thumbnail/500x500")
        let spent = ProcessCPUTime.seconds() - before
        #expect(response.status.code == 413)
        #expect(response.bodyText.contains("pixels of work"), "\(response.bodyText)")
        print("1,000-frame \(animation.count)-byte animation: \(response.status.code) after \(spent) s of CPU")
        _ = folder
    }

    @Test func theWorkBudgetCountsDecodeResamplesAndEncode() throws {
        let pipeline = try ProcessingParser.parse("imageMogr2/thumbnail/500x500")
        let info = ImageInfo(format: .webp, width: 1000, height: 1000, alpha: false, frames: 10, loopCount: 0, bytes: 1)
        let cost = try ImageTransformer.cost(
            of: info, pipeline: pipeline, format: .webp, triesLossless: true, animationContent: .photo)
        // Per frame: decoded, resampled and encoded (an animation's encode weighs 3 a pixel); visited
        // again to sample frames (decoded and resampled); decoded from what was written; and encoded
        // once more should it drift.
        let encode = 1_000_000 + 250_000 + 250_000 * 3
        let perFrame = encode + (1_000_000 + 250_000) + 250_000 + encode
        // The drift check of the two sampled frames after the first: a key frame encoded and
        // decoded, two scores.
        let checks = 2 * 4 * 250_000
        #expect(cost.workPixels == 10 * perFrame + checks)
    }

    /// A GIF's mixed lossy-and-lossless encoding is counted apart: the
    /// headers cannot tell a photographic GIF, which never gets one, from a
    /// graphic, so only the rest of the work is held to the budget before a
    /// pixel is decoded.
    @Test func aGraphicAnimationsMixedEncodingIsCountedApart() throws {
        let pipeline = try ProcessingParser.parse("imageMogr2/thumbnail/500x500")
        let info = ImageInfo(format: .gif, width: 1000, height: 1000, alpha: false, frames: 10, loopCount: 0, bytes: 1)
        let graphic = try ImageTransformer.cost(
            of: info, pipeline: pipeline, format: .webp, triesLossless: true, animationContent: .graphic)
        let photo = try ImageTransformer.cost(
            of: info, pipeline: pipeline, format: .webp, triesLossless: true, animationContent: .photo)
        // Per frame: decoded and resampled again, and encoded lossless-weighted.
        #expect(graphic.mixedEncodingWorkPixels == 10 * (1_000_000 + 250_000 + 250_000 * 6))
        #expect(graphic.workPixelsBeforeMixedEncoding == photo.workPixels)
        #expect(photo.mixedEncodingWorkPixels == 0)
        let lossyOnly = try ImageTransformer.cost(
            of: info, pipeline: pipeline, format: .webp, triesLossless: false, animationContent: .graphic)
        #expect(lossyOnly.mixedEncodingWorkPixels == 0 && lossyOnly.workPixels == photo.workPixels)
    }

    /// A still whose format may hold a graphic is counted with its lossless
    /// try at what a photo-like graphic's costs (11 units a pixel,
    /// docs/work-budget.md) up to ``VariantEncoding/maxLosslessTryPixels``,
    /// and without it, as a JPEG is, past that. Through the origin at its
    /// defaults: a PNG enlarged to 2400×2400 is made, lossy, where with the
    /// try its 28 bytes a pixel passed the memory share (413).
    @Test func aStillsLosslessTryIsCountedUpToItsSize() async throws {
        let cost = { (format: ImageFormat, side: Int) throws -> Int in
            let info = ImageInfo(format: format, width: 64, height: 48, alpha: false, frames: 1, loopCount: 0, bytes: 1)
            return try ImageTransformer.cost(
                of: info, pipeline: try ProcessingParser.parse("imageMogr2/thumbnail/\(side)x\(side)!/format/webp"),
                format: .webp, triesLossless: true, animationContent: .photo
            ).workPixels
        }
        // Decoded whole, resampled, encoded lossy, and tried lossless while small enough.
        #expect(try cost(.png, 2100) == 64 * 48 + 2100 * 2100 * (1 + 1 + 11))
        #expect(try cost(.jpeg, 2100) == 64 * 48 + 2100 * 2100 * 2)
        #expect(try cost(.png, 2400) == 64 * 48 + 2400 * 2400 * 2)

        let (folder, origin) = try origin(["small.png": try smallPNG()])
        let made = await origin.get("/small.png?imageMogr2/thumbnail/2400x2400!/format/webp")
        #expect(made.status == .ok, "\(made.bodyText.prefix(300))")
        let features = try WebPFeatures(made.bodyData)
        #expect(features.compression == .lossy && features.width == 2400)
        _ = folder
    }

    /// With a budget between the work before the mixed encoding and the
    /// whole: a photographic GIF (full-palette frames) is made, lossy
    /// only; a graphic GIF of the same size and frames is refused once
    /// its sampled frames show a graphic, with the same 413 its headers
    /// would have had, before anything is encoded.
    @Test func aPhotographicGIFFitsWhereAGraphicOfItsSizeIsRefused() async throws {
        let (width, height, count) = (96, 64, 4)
        let photos = (0..<count).map { SyntheticImages.photo(width: width, height: height, seed: $0 + 7) }
        let graphics = (0..<count).map { index -> Image in
            var image = Image(width: width, height: height, filledWith: (20, 20, 120, 255))
            for y in 8..<40 {
                for x in (index * 16)..<(index * 16 + 24) {
                    image.pixels.replaceSubrange((y * width + x) * 4..<(y * width + x) * 4 + 3, with: [240, 200, 0])
                }
            }
            return image
        }
        let gif = { (images: [Image]) throws -> Data in
            try GIFEncoder().encode(
                AnimatedImage(
                    canvasWidth: width, canvasHeight: height,
                    frames: images.map { AnimatedImage.Frame(image: $0, durationMilliseconds: 100) }, loopCount: 0))
        }
        let (photoGIF, graphicGIF) = (try gif(photos), try gif(graphics))
        let pipeline = try ProcessingParser.parse("imageMogr2/format/webp")
        let cost = try ImageTransformer.cost(
            of: try ImageInfo(photoGIF), pipeline: pipeline, format: .webp, triesLossless: true,
            animationContent: .graphic)
        #expect(try ImageInfo(graphicGIF).frames == count && cost.mixedEncodingWorkPixels > 0)
        let budget = cost.workPixelsBeforeMixedEncoding + cost.mixedEncodingWorkPixels / 2
        let (folder, origin) = try origin(["photo.gif": photoGIF, "graphic.gif": graphicGIF]) {
            $0.transformer.limits.maxWorkPixels = budget
        }
        let made = await origin.get("/photo.gif?imageMogr2/format/webp")
        #expect(made.status == .ok, "\(made.bodyText)")
        let info = try ImageInfo(made.bodyData)
        #expect(info.format == .webp && info.frames == count)
        let refused = await origin.get("/graphic.gif?imageMogr2/format/webp")
        #expect(refused.status.code == 413)
        #expect(
            refused.bodyText.contains("\(cost.workPixels.formattedWithSeparators) pixels of work")
                && refused.bodyText.contains("mixed"), "\(refused.bodyText)")
        _ = folder
    }

    /// Through the origin at its defaults: a graphic GIF of 27 frames of
    /// 480×270, past ``VariantEncoding/maxMixedEncodingPixelFrames``, is an
    /// animated WebP of its 27 frames, written lossy; with its mixed
    /// encoding it would count 60.5 M, and was refused.
    @Test func aLongGraphicGIFIsMadeLossyAtTheDefaults() async throws {
        let (width, height, count) = (480, 270, 27)
        let frames = (0..<count).map { index -> AnimatedImage.Frame in
            var image = Image(width: width, height: height, filledWith: (20, 20, 120, 255))
            let square = Array([[UInt8]](repeating: [240, 200, 0, 255], count: 60).joined())
            for y in 100..<160 {
                let start = (y * width + index * 15) * 4
                image.pixels.replaceSubrange(start..<(start + square.count), with: square)
            }
            return AnimatedImage.Frame(image: image, durationMilliseconds: 100)
        }
        let gif = try GIFEncoder().encode(
            AnimatedImage(canvasWidth: width, canvasHeight: height, frames: frames, loopCount: 0))
        let cost = try ImageTransformer.cost(
            of: try ImageInfo(gif), pipeline: try ProcessingParser.parse("imageMogr2/format/webp"), format: .webp,
            triesLossless: true, animationContent: .graphic)
        #expect(cost.mixedEncodingWorkPixels == 0)
        let (folder, origin) = try origin(["long.gif": gif])
        let made = await origin.get("/long.gif?imageMogr2/format/webp")
        #expect(made.status == .ok, "\(made.bodyText.prefix(300))")
        let info = try ImageInfo(made.bodyData)
        #expect(info.format == .webp && info.frames == count)
        _ = folder
    }

    /// Through the origin: a second search of the same size runs on the
    /// planes the first one left (both buffers reused), the kept planes are
    /// reported at `/metrics` and stay within their share, and the
    /// variant is byte for byte what a transformer with planes of its own
    /// makes.
    @Test func aSecondSearchRunsOnTheFirstOnesPlanes() async throws {
        let photo = { (seed: Int) throws -> Data in
            try JPEGEncoder(options: .init(quality: 90)).encode(
                SyntheticImages.photo(width: 320, height: 240, seed: seed))
        }
        let (folder, origin) = try origin(["a.jpg": try photo(1), "b.jpg": try photo(2)]) {
            $0.transformer.qualityMode = .auto(target: 65)
        }
        let pool = try #require(origin.transformer.scorerPlanes)
        #expect(pool.capacityBytes == origin.configuration.memoryBudget.scorerPlanesBytes)
        let first = await origin.get("/a.jpg?imageView2/2/w/200/format/webp")
        #expect(first.status == .ok && pool.keptCount == 2 && pool.reuseCount == 0)
        let metrics = await origin.get("/metrics").bodyText
        #expect(metrics.contains("webpbridge_origin_scorer_planes_bytes \(pool.keptBytes)"), "\(metrics)")
        let second = await origin.get("/b.jpg?imageView2/2/w/200/format/webp")
        #expect(second.status == .ok && pool.reuseCount == 2 && pool.keptCount == 2)
        #expect(pool.keptBytes <= pool.capacityBytes && origin.workInFlight.reservedBytes == 0)

        let alone = ImageTransformer(configuration: origin.configuration.transformer)
        let expected = try alone.transform(
            Data(contentsOf: folder.file("b.jpg")), pipeline: ProcessingParser.parse("imageView2/2/w/200/format/webp"))
        #expect(second.bodyData == expected.data)
    }
}

/// CPU seconds this process has used, user and system.
enum ProcessCPUTime {
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}

/// The line for memory, alone: first come, first served, bounded.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WorkInFlightTests {
    /// `reserve` on a thread of its own (it blocks), reporting when it returns.
    private func waiter(_ work: WorkInFlight, _ bytes: Int) -> AsyncStream<Bool> {
        AsyncStream { continuation in
            Thread {
                continuation.yield(work.reserve(bytes))
                continuation.finish()
            }.start()
        }
    }

    @Test func aSmallerRequestDoesNotOvertakeTheOneBeforeIt() async throws {
        let work = WorkInFlight(capacityBytes: 100, maxWaiting: 2)
        #expect(work.reserve(100))
        var first = waiter(work, 60).makeAsyncIterator()
        await work.waitUntil { $0.waiting == 1 }
        var second = waiter(work, 30).makeAsyncIterator()
        await work.waitUntil { $0.waiting == 2 }
        // A third request does not get past a full line, nor wait in it.
        #expect(!work.reserve(1))
        // 40 free: the second would fit, but the first is ahead of it.
        work.release(40)
        #expect(work.reservedBytes == 60 && work.waitingCount == 2)
        work.release(60)
        #expect(await first.next() == true)
        #expect(await second.next() == true)
        #expect(work.reservedBytes == 90 && work.waitingCount == 0)
        // More than the whole share is refused at once, waiting or not.
        #expect(!work.reserve(101))
        work.release(90)
        #expect(work.reservedBytes == 0)
    }

    /// Planes kept between quality searches count against the share, and
    /// give way to a variant that needs the room: a reservation that fits
    /// beside them leaves them kept, one that fits only without them has
    /// as many freed as it needs, on the immediate path and for a waiter.
    @Test func keptScorerPlanesGiveWayToAVariantThatNeedsTheRoom() async throws {
        let capacity = 4 << 20
        let pool = SSIMULACRA2.PlanePool(capacityBytes: 64 << 20)
        let work = WorkInFlight(capacityBytes: capacity, maxWaiting: 1, keeping: pool)
        _ = try SSIMULACRA2.Scorer(SyntheticImages.photo(width: 200, height: 150), pool: pool)
        let kept = pool.keptBytes
        #expect(kept >= 79 * 200 * 150 && kept < 3 << 20, "\(kept)")

        #expect(work.reserve(1 << 20))
        #expect(pool.keptBytes == kept, "1 MiB fits beside the kept planes")
        #expect(work.reserve(2 << 20))
        #expect(pool.keptBytes < kept && pool.keptBytes + work.reservedBytes <= capacity)
        work.release(3 << 20)

        // A waiter: the planes come back while the share is held; the release makes room by freeing them.
        #expect(work.reserve(3 << 20))
        _ = try SSIMULACRA2.Scorer(SyntheticImages.photo(width: 200, height: 150), pool: pool)
        #expect(pool.keptBytes == kept)
        var waiter = waiter(work, 2 << 20).makeAsyncIterator()
        await work.waitUntil { $0.waiting == 1 }
        work.release(3 << 20)
        #expect(await waiter.next() == true)
        #expect(work.reservedBytes == 2 << 20 && pool.keptBytes + work.reservedBytes <= capacity)
        work.release(2 << 20)
    }
}
