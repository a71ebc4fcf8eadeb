import Foundation
import HTTPServer
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The shared `DataLoading` double keeps the loader contract the suites
/// rely on: the first scripted fragment wins, a fragment scripted again is
/// replaced in place, a body over `maxBodyBytes` fails, every request is
/// recorded, and an unscripted request to a bare loader fails.
@Suite(.timeLimit(.suiteBound))
struct ScriptedDataLoaderTests {
    static func request(_ url: String, maxBodyBytes: Int = 32 << 20) -> DataRequest {
        DataRequest(url: URL(string: url)!, maxBodyBytes: maxBodyBytes)
    }

    @Test func theFirstMatchingFragmentAnswersAndAFragmentScriptedAgainIsReplaced() async throws {
        let loader = ScriptedDataLoader(answering: .ok(Data("original".utf8)))
        loader.inject(.text(404, "gone"), whereURLContains: "format/webp")
        loader.inject(.text(500, "never"), whereURLContains: "/a.jpg")
        #expect(try await loader.load(Self.request("http://img.test/a.jpg?format/webp")).statusCode == 404)
        #expect(try await loader.load(Self.request("http://img.test/a.jpg")).statusCode == 500)
        loader.inject(.ok(Data("webp".utf8)), whereURLContains: "format/webp")
        #expect(try await loader.load(Self.request("http://img.test/a.jpg?format/webp")).body == Data("webp".utf8))
        loader.removeInjection(whereURLContains: "/a.jpg")
        #expect(try await loader.load(Self.request("http://img.test/a.jpg")).body == Data("original".utf8))
        #expect(loader.requests.count == 4)
        #expect(loader.requestCount(whereURLContains: "format/webp") == 2)
    }

    @Test func faultsChangeTheBasesAnswer() async throws {
        let loader = ScriptedDataLoader(
            serving: ClosureHTTPHandler { _ in .data(Data("abcdef".utf8), contentType: "image/jpeg") })
        loader.inject(.truncate, whereURLContains: "cut")
        loader.inject(.status(503), whereURLContains: "busy")
        loader.inject(.fail(.timedOut), whereURLContains: "slow")
        #expect(try await loader.load(Self.request("http://img.test/cut.jpg")).body == Data("abc".utf8))
        let busy = try await loader.load(Self.request("http://img.test/busy.jpg"))
        #expect(busy.statusCode == 503 && busy.body == Data("abcdef".utf8))
        await #expect(throws: DataLoadingError.self) { try await loader.load(Self.request("http://img.test/slow.jpg")) }
    }

    @Test func aBodyOverTheLimitAndAnUnscriptedRequestFail() async throws {
        let loader = ScriptedDataLoader(answering: .ok(Data(count: 100)))
        let tooLarge = await #expect(throws: DataLoadingError.self) {
            try await loader.load(Self.request("http://img.test/a.jpg", maxBodyBytes: 99))
        }
        #expect(tooLarge?.kind == .tooLarge)
        let bare = ScriptedDataLoader()
        let unscripted = await #expect(throws: DataLoadingError.self) {
            try await bare.load(Self.request("http://img.test/a.jpg"))
        }
        #expect(unscripted?.kind == .unsupportedURL)
        #expect(bare.requests.map(\.url.absoluteString) == ["http://img.test/a.jpg"])
    }
}
