import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// A request that saves data (``ImageRequest/savesData``, the app's Low
/// Data Mode tier) asks with `Save-Data: on` and keeps what it gets apart:
/// the smaller answer never stands in for the full one, while a fresh full
/// answer already held answers it at no cost on the wire.
@Suite(.timeLimit(.suiteBound))
struct SaveDataTests {
    /// A CDN that answers `Save-Data: on` with other (smaller) bytes, as
    /// `webp-bridge origin --save-data` does, and says so in `Vary`.
    struct Site {
        let full: Data
        let saving: Data
        let original: Data
        let upstream: ScriptedDataLoader
        let clock = Lock(Date(timeIntervalSince1970: 1_000_000))
        let pipeline: ImagePipeline
        static let url = URL(string: "http://img.test/a.jpg")!

        init(cacheControl: String = "max-age=60") throws {
            let image = SyntheticImages.photo(width: 48, height: 32, seed: 3)
            let full = try WebPEncoder(options: .init(quality: 90)).encode(image)
            let saving = try WebPEncoder(options: .init(quality: 20)).encode(image)
            let original = try JPEGEncoder(options: .init(quality: 90)).encode(image)
            self.full = full
            self.saving = saving
            self.original = original
            upstream = ScriptedDataLoader { request, _ throws(DataLoadingError) in
                let isVariant = request.url.query != nil
                let savesData = request.headers[ClientHints.saveDataFieldName] == "on"
                return DataResponse(
                    url: request.url, statusCode: 200,
                    headers: [
                        "Content-Type": isVariant ? "image/webp" : "image/jpeg", "Cache-Control": cacheControl,
                        "ETag": savesData ? "\"sd\"" : "\"full\"", "Vary": "Accept, Save-Data",
                    ],
                    body: isVariant ? (savesData ? saving : full) : original)
            }
            let rules = try RewritePreset.configuration(named: "qiniu", host: "img.test", width: 48)
            let clock = self.clock
            pipeline = ImagePipeline(
                configuration: .init(
                    rewriter: try Rewriter(configuration: rules), dataLoader: upstream, memoryCache: nil,
                    now: { clock.withLock { $0 } }))
        }

        func request(savesData: Bool) -> ImageRequest { ImageRequest(url: Self.url, savesData: savesData) }

        /// The `Save-Data` field of each request the CDN got, in order (`-` for none).
        var sentSaveData: [String] { upstream.requests.map { $0.headers[ClientHints.saveDataFieldName] ?? "-" } }
    }

    @Test func theKeysOfARequestThatSavesDataAreItsOwn() throws {
        let site = try Site()
        let full = site.pipeline.plan(for: site.request(savesData: false))
        let saving = site.pipeline.plan(for: site.request(savesData: true))
        #expect(saving.variantURL == full.variantURL, "the same URL is fetched")
        #expect(saving.fullAnswerKey == full.cacheKey && saving.standInKey == full.cacheKey)
        #expect(full.standInKey == nil && full.originalStandInKey == nil)
        #expect(saving.cacheKey != full.cacheKey && saving.originalCacheKey != full.originalCacheKey)
        #expect(saving.originalStandInKey == full.originalCacheKey)
        var sized = site.request(savesData: true)
        sized.targetSize = .init(width: 10, height: 10)
        var sizedFull = sized
        sizedFull.savesData = false
        #expect(site.pipeline.plan(for: sized).imageCacheKey != site.pipeline.plan(for: sizedFull).imageCacheKey)
    }

    @Test func theSmallerAnswerIsAskedForAndNeverStandsInForTheFullOne() async throws {
        let site = try Site()
        let saving = try await site.pipeline.data(for: site.request(savesData: true))
        #expect(saving.data == site.saving && saving.source == .network)
        #expect(site.sentSaveData == ["on"])
        let full = try await site.pipeline.data(for: site.request(savesData: false))
        #expect(full.data == site.full && full.source == .network, "fetched: the smaller bytes are not the answer")
        #expect(site.sentSaveData == ["on", "-"])
        // Each is now a hit under its own key.
        #expect(try await site.pipeline.data(for: site.request(savesData: true)).data == site.saving)
        #expect(try await site.pipeline.data(for: site.request(savesData: false)).data == site.full)
        #expect(site.upstream.requests.count == 2)
    }

    @Test func aFreshFullAnswerAnswersARequestThatSavesData() async throws {
        let site = try Site()
        _ = try await site.pipeline.data(for: site.request(savesData: false))
        let plan = site.pipeline.plan(for: site.request(savesData: true))
        let immediate = try #require(site.pipeline.cachedData(for: plan), "the server's synchronous path too")
        #expect(immediate.data == site.full)
        let hit = try await site.pipeline.data(for: plan)
        #expect(hit.data == site.full && hit.source == .disk && hit.networkBytes == 0)
        #expect(site.upstream.requests.count == 1, "nothing more on the wire")
        let cacheOnly = ImageRequest(url: Site.url, cachePolicy: .cacheOnly, savesData: true)
        #expect(try await site.pipeline.data(for: cacheOnly).data == site.full)
    }

    @Test func aStaleFullAnswerIsNotRevalidatedForARequestThatSavesData() async throws {
        let site = try Site()
        _ = try await site.pipeline.data(for: site.request(savesData: false))
        site.clock.withLock { $0 += 120 }
        #expect(site.pipeline.cachedData(for: site.pipeline.plan(for: site.request(savesData: true))) == nil)
        let saving = try await site.pipeline.data(for: site.request(savesData: true))
        #expect(saving.data == site.saving && saving.source == .network)
        let sent = try #require(site.upstream.requests.last)
        #expect(sent.headers["If-None-Match"] == nil, "its own answer, asked for unconditionally")
        #expect(sent.headers[ClientHints.saveDataFieldName] == "on")
    }

    @Test func afterAFailedVariantTheOriginalIsAskedForSavingDataUnderItsOwnKey() async throws {
        let site = try Site()
        site.upstream.inject(.status(500), whereURLContains: "format/webp")
        let saving = try await site.pipeline.data(for: site.request(savesData: true))
        #expect(saving.isFallback && saving.data == site.original)
        #expect(site.sentSaveData == ["on", "on"], "the variant, then the original, each with Save-Data")
        let plan = site.pipeline.plan(for: site.request(savesData: true))
        #expect(saving.cacheKey == plan.originalCacheKey)
    }

    @Test func aFullRequestCarriesNoSaveData() async throws {
        let site = try Site()
        _ = try await site.pipeline.data(for: site.request(savesData: false))
        #expect(site.sentSaveData == ["-"])
    }
}
