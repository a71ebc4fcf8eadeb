import Foundation
import PipelineTestSupport
import Testing
import WebPBridge

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
                let (plans, urlPlans) = (imageBridge.planCount, pipeline.planCount)
                let (_, response) = try await session.data(for: request(origin.url("/photo.jpg", host: "localhost")))
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(round)")
                #expect(imageBridge.planCount - plans == 1, "\(round)")
                #expect(pipeline.planCount == urlPlans, "\(round): the pipeline planned the URL again")
            }
        }
    }

    /// Claims asked for and never loaded (the URL loading system may ask
    /// `canInit` without starting a load) stay within the kept bound.
    @Test func aFloodOfClaimsNeverLoadedStaysWithinTheBound() async throws {
        try await withBridge { bridge in
            for index in 0..<1_000 {
                #expect(WebPBridgeURLProtocol.canInit(with: request(bridge.url("/photo.jpg?n=\(index)"))))
                #expect(WebPBridgeURLProtocol.keptClaimCount <= WebPBridgeURLProtocol.keptClaimsLimit)
            }
            #expect(WebPBridgeURLProtocol.keptClaimCount == WebPBridgeURLProtocol.keptClaimsLimit)
        }
    }
}
