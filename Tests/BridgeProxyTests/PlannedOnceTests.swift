import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// Each proxied image request is planned once — routed, rewritten and
/// decided by ``ImageBridge/route(_:)`` — and the plan carried down: the
/// immediate path's plan is the one `handle` uses on a miss, and the
/// pipeline never plans the URL again. Through the live proxy, fetched by
/// `curl`.
@Suite(.enabled(if: ExternalTool.available("curl"), "needs curl"), .timeLimit(.suiteBound))
struct PlannedOnceTests {
    struct Step: CustomStringConvertible {
        var name: String
        var path = "/photo.jpg"
        var userAgent: String
        var accept: String
        var cacheControl: String?
        /// Times the core routes the request: 1, or 0 for an answer the hit memo holds ready.
        var routes: Int
        /// Whether the image path claims it (then each route is a plan).
        var claimed = true

        var description: String { name }
    }

    static let webKit = BridgeFixture.webKitUserAgent
    static let steps = [
        Step(name: "a WebP client's miss", userAgent: "webp-client/1", accept: BridgeFixture.webPAccept, routes: 1),
        Step(
            name: "its data-cache hit, on the immediate path", userAgent: "webp-client/1",
            accept: BridgeFixture.webPAccept, routes: 1),
        Step(
            name: "its hit memo's ready answer, not planned at all", userAgent: "webp-client/1",
            accept: BridgeFixture.webPAccept, routes: 0),
        Step(
            name: "a transcode client's request: a cached variant, transcoded on the async path",
            userAgent: webKit, accept: BridgeFixture.noWebPAccept, routes: 1),
        Step(
            name: "a transcode client's miss", path: "/flat.png", userAgent: webKit,
            accept: BridgeFixture.noWebPAccept, routes: 1),
        Step(
            name: "a WebP client's miss whose original the core relays (no-transform upstream)", path: "/nt.jpg",
            userAgent: "webp-client/1", accept: BridgeFixture.webPAccept, routes: 1),
        Step(
            name: "a client that forbids transforming: passed through, routed once", userAgent: "webp-client/1",
            accept: BridgeFixture.webPAccept, cacheControl: "no-transform", routes: 1,
            claimed: false),
    ]

    @Test func eachImageRequestIsPlannedOnce() async throws {
        let fixture = try BridgeFixture()
        let bridge = try fixture.bridge()
        let pipeline = bridge.configuration.pipeline
        let server = HTTPServer(configuration: HTTPServer.Configuration(), handler: bridge)
        let endpoint = try await server.start()
        let curl = try #require(ExternalTool.path("curl"))
        for step in Self.steps {
            let core = bridge.imageBridge
            let (routes, plans, urlPlans) = (core.routeCount, core.planCount, pipeline.planCount)
            var arguments = [
                "-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "-H",
                "User-Agent: \(step.userAgent)", "-H", "Accept: \(step.accept)",
            ]
            if let cacheControl = step.cacheControl { arguments += ["-H", "Cache-Control: \(cacheControl)"] }
            let result = try await ChildProcess.runOffThePool(curl, arguments + ["\(endpoint.url)\(step.path)"])
            #expect(result.stdout == "200", "\(step): \(result.stdout) \(result.stderr)")
            #expect(core.routeCount - routes == step.routes, "\(step)")
            #expect(core.planCount - plans == (step.claimed ? step.routes : 0), "\(step)")
            #expect(pipeline.planCount == urlPlans, "\(step): the pipeline planned the URL again")
        }
        // Nothing left behind: every kept plan was taken by its request.
        #expect(bridge.plannedRequestCount == 0)
        await server.shutdown()
    }
}
