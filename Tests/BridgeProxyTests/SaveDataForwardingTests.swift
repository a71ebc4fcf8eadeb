import BridgeProxy
import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// `proxy --save-data`: a client's `Save-Data: on` goes on with its image
/// request, its answer is kept apart from everyone else's (the data cache
/// and the memoised answers), and image answers vary on it. Without the
/// flag the field is not read.
@Suite(.timeLimit(.suiteBound))
struct SaveDataForwardingTests {
    /// The fixture's site, except that a variant asked for with
    /// `Save-Data: on` is a different (smaller) WebP.
    static func savingUpstream(_ fixture: BridgeFixture, saving: Data) -> ScriptedDataLoader {
        ScriptedDataLoader { request, onChunk throws(DataLoadingError) in
            guard request.headers[ClientHints.saveDataFieldName] == "on", request.url.query != nil else {
                return try await fixture.upstream.load(request, onChunk: onChunk)
            }
            // Fresh for a day, as the origin's variants are: under a sanitizer the test outlasts a
            // minute, and a stale saving answer is rightly passed over for the fresh full one.
            return DataResponse(
                url: request.url, statusCode: 200,
                headers: ["Content-Type": "image/webp", "Cache-Control": "max-age=86400", "ETag": "\"sd\""],
                body: saving)
        }
    }

    static func request(saveData: String?) -> HTTPRequest {
        var request = HTTPRequest.webView("/photo.jpg", accept: BridgeFixture.webPAccept)
        if let saveData { request.headers.add(name: "Save-Data", value: saveData) }
        return request
    }

    @Test func eachClientGetsItsOwnAnswerOnTheWireAndFromTheMemo() async throws {
        let fixture = try BridgeFixture()
        let saving = try WebPEncoder(options: .init(quality: 10)).encode(SyntheticImages.photo(width: 40, height: 30))
        let upstream = Self.savingUpstream(fixture, saving: saving)
        let bridge = try fixture.bridge(loader: upstream) { $0.forwardsSaveData = true }
        let saver = Self.request(saveData: "on")
        let reader = Self.request(saveData: nil)

        let saved = await bridge.handle(saver)
        #expect(saved.status == .ok && saved.bodyData == saving)
        #expect(saved.headers["Vary"] == "Accept, Save-Data")
        let full = await bridge.handle(reader)
        #expect(full.status == .ok && full.bodyData != saving && !full.bodyData.isEmpty)
        #expect(full.headers["Vary"] == "Accept, Save-Data", "every image answer varies on it, sent or not")
        let sent = upstream.requests.filter { $0.url.query != nil }.map { $0.headers["Save-Data"] ?? "-" }
        #expect(sent == ["on", "-"])

        // Repeats are hits, memoised apart: neither answer stands in for the other.
        for _ in 0..<2 {
            #expect(await bridge.handle(saver).bodyData == saving)
            #expect(await bridge.handle(reader).bodyData == full.bodyData)
            #expect(bridge.immediateResponse(to: saver)?.bodyData == saving)
            #expect(bridge.immediateResponse(to: reader)?.bodyData == full.bodyData)
        }
        #expect(upstream.requests.count(where: { $0.url.query != nil }) == 2, "nothing more on the wire")
        // A value other than "on" (WICG Save Data: the token is "on") is a client that does not save data.
        #expect(await bridge.handle(Self.request(saveData: "off")).bodyData == full.bodyData)
    }

    @Test func withoutTheFlagTheFieldIsNotRead() async throws {
        let fixture = try BridgeFixture()
        let saving = try WebPEncoder(options: .init(quality: 10)).encode(SyntheticImages.photo(width: 40, height: 30))
        let upstream = Self.savingUpstream(fixture, saving: saving)
        let bridge = try fixture.bridge(loader: upstream)
        let answer = await bridge.handle(Self.request(saveData: "on"))
        #expect(answer.status == .ok && answer.bodyData != saving)
        #expect(answer.headers["Vary"] == "Accept")
        #expect(upstream.requests.allSatisfy { $0.headers["Save-Data"] == nil })
    }

    /// The app's link (``ImageBridge/update(_:)``) changes what a request
    /// is planned as, not its fields: an answer memoised in Low Data Mode
    /// is never a full-tier request's ready answer once the link is back.
    @Test func aLowDataAnswerIsNotMemoisedForTheFullTier() async throws {
        let fixture = try BridgeFixture()
        let saving = try WebPEncoder(options: .init(quality: 10)).encode(SyntheticImages.photo(width: 40, height: 30))
        let upstream = Self.savingUpstream(fixture, saving: saving)
        let bridge = try fixture.bridge(loader: upstream)
        let reader = Self.request(saveData: nil)

        bridge.imageBridge.update(.lowData)
        let saved = await bridge.handle(reader)
        #expect(saved.status == .ok && saved.bodyData == saving)
        #expect(saved.headers["Vary"] == "Accept", "the field was not the client's")
        #expect(bridge.immediateResponse(to: reader)?.bodyData == saving, "memoised at the reduced tier")

        bridge.imageBridge.update(.unmetered)
        #expect(bridge.immediateResponse(to: reader)?.bodyData != saving)
        let full = await bridge.handle(reader)
        #expect(full.status == .ok && full.bodyData != saving && !full.bodyData.isEmpty)
        let sent = upstream.requests.filter { $0.url.query != nil }.map { $0.headers["Save-Data"] ?? "-" }
        #expect(sent == ["on", "-"])
    }
}
