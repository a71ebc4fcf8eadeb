import Foundation
import TestTraits
import Testing
import WebPBridge

/// The controller that runs the state machine on a real pipeline: a memory
/// hit is drawn synchronously, a failed load draws the failure image, and a
/// reused view's old load is cancelled down to the loader.
@MainActor
@Suite(.timeLimit(.suiteBound))
struct ImageLoadControllerTests {
    /// Answers 404 to every URL, except those in `hanging`, whose loads
    /// report `started` on `events`, wait until cancelled, then report
    /// `cancelled`.
    struct ScriptedLoader: DataLoading {
        var hanging: Set<URL> = []
        let events: AsyncStream<String>.Continuation

        func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
            -> DataResponse
        {
            if hanging.contains(request.url) {
                events.yield("started \(request.url.lastPathComponent)")
                // Never yields: the loop ends only when the task is cancelled.
                let (never, keep) = AsyncStream<Int>.makeStream()
                for await _ in never {}
                keep.finish()
                events.yield("cancelled \(request.url.lastPathComponent)")
                throw DataLoadingError(.cancelled, "cancelled")
            }
            return DataResponse(url: request.url, statusCode: 404, headers: [:], body: Data())
        }
    }

    /// What the controller drew, in order.
    final class Drawn {
        var effects: [ImageLoadStateMachine.Effect] = []
    }

    static let a = URL(string: "https://img.example/a.jpg")!
    static let b = URL(string: "https://img.example/b.jpg")!
    static let image = DecodedImage.still(Image(width: 2, height: 1, filledWith: (9, 8, 7, 255)))

    private func makePipeline(hanging: Set<URL> = []) -> (ImagePipeline, AsyncStream<String>) {
        let (events, continuation) = AsyncStream<String>.makeStream()
        let pipeline = ImagePipeline(
            configuration: .init(dataLoader: ScriptedLoader(hanging: hanging, events: continuation)))
        return (pipeline, events)
    }

    @Test func aMemoryHitIsDrawnSynchronouslyWithNoLoad() {
        let (pipeline, _) = makePipeline()
        let request = ImageRequest(url: Self.a)
        pipeline.configuration.memoryCache?.insert(Self.image, for: pipeline.plan(for: request).imageCacheKey)
        let drawn = Drawn()
        let controller = ImageLoadController(pipeline: pipeline) { drawn.effects.append($0) }
        controller.setRequest(request)
        #expect(drawn.effects == [.showImage(Self.image, .none)])
        #expect(!controller.isLoading)
        #expect(pipeline.trafficMeter.snapshot.memoryHits == 1)
    }

    @Test func aFailedLoadDrawsTheFailureImage() async {
        let (pipeline, _) = makePipeline()
        let (drawn, drawing) = AsyncStream<ImageLoadStateMachine.Effect>.makeStream()
        let controller = ImageLoadController(pipeline: pipeline) { drawing.yield($0) }
        controller.setRequest(ImageRequest(url: Self.a))
        var effects: [ImageLoadStateMachine.Effect] = []
        for await effect in drawn {
            effects.append(effect)
            if effect == .showFailure { break }
        }
        #expect(effects == [.showPlaceholder, .showFailure])
        #expect(!controller.isLoading)
    }

    /// The old load is under way at the loader before the view is reused
    /// (waited for, not assumed), so its cancellation must reach the loader.
    @Test func aReusedViewCancelsTheOldLoadAtTheLoader() async {
        let (pipeline, events) = makePipeline(hanging: [Self.a])
        let hit = ImageRequest(url: Self.b)
        pipeline.configuration.memoryCache?.insert(Self.image, for: pipeline.plan(for: hit).imageCacheKey)
        let drawn = Drawn()
        let controller = ImageLoadController(pipeline: pipeline) { drawn.effects.append($0) }
        controller.setRequest(ImageRequest(url: Self.a))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started a.jpg")
        controller.setRequest(hit)
        #expect(drawn.effects == [.showPlaceholder, .showImage(Self.image, .none)])
        #expect(!controller.isLoading)
        #expect(await iterator.next() == "cancelled a.jpg")
    }
}
