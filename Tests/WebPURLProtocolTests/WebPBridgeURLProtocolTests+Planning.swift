import Foundation
import ImageDelivery
import ImagePipeline
import PipelineTestSupport
import Testing

@testable import WebPURLProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebPBridgeURLProtocolTests {
    /// A claimed request is planned once, through a real URLSession: the
    /// plan `canInit(with:)` made is the one `startLoading` loads, and the
    /// pipeline never plans the URL again.
    @Test func aClaimedRequestIsPlannedOnce() async throws {
        try await LiveOrigin.with { origin in
            let pipeline = try origin.pipeline(host: "localhost", dataCache: MemoryDataCache())
            let imageBridge = ImageBridge(pipeline: pipeline, clientPolicy: .legacy)
            let registration = WebPBridgeURLProtocol.register(.init(imageBridge: imageBridge))
            let session = URLSession(configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .ephemeral))
            defer {
                WebPBridgeURLProtocol.unregister(registration)
                session.finishTasksAndInvalidate()
            }
            for round in ["a miss", "a hit"] {
                let (plans, urlPlans) = (imageBridge.planCount, pipeline.urlPlanCount)
                let (_, response) = try await session.data(for: request(origin.url("/photo.jpg", host: "localhost")))
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(round)")
                #expect(imageBridge.planCount - plans == 1, "\(round)")
                #expect(pipeline.urlPlanCount == urlPlans, "\(round): the pipeline planned the URL again")
            }
        }
    }
}
