import Foundation
import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound)) struct CachePolicyTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let url = URL(string: "http://img.example.com/a.jpg?imageView2/2/w/750/format/webp")!
    let policy = CachePolicy()

    func response(_ status: Int = 200, _ headers: HTTPFieldList = [:]) -> DataResponse {
        DataResponse(url: url, statusCode: status, headers: headers, body: Data("webp".utf8))
    }

    func expiry(_ headers: HTTPFieldList, policy: CachePolicy? = nil) -> Date? {
        guard case .store(let expiresAt, _) = (policy ?? self.policy).decision(for: response(200, headers), now: now)
        else { return nil }
        return expiresAt
    }

    @Test func silentResponseLivesSevenDays() {
        #expect(
            policy.decision(for: response(), now: now)
                == .store(
                    expiresAt: now.addingTimeInterval(7 * 24 * 3600), requiresRevalidation: false))
    }

    @Test func defaultLifetimeIsConfigurable() {
        #expect(expiry([:], policy: CachePolicy(defaultLifetime: 60)) == now.addingTimeInterval(60))
    }

    @Test(arguments: ["no-store", "public, no-store", "max-age=600, NO-STORE", "private,no-store"])
    func noStoreIsNeverStored(cacheControl: String) {
        #expect(!policy.decision(for: response(200, ["Cache-Control": cacheControl]), now: now).isStore)
    }

    @Test(arguments: [204, 206, 301, 304, 404, 500, 503])
    func onlyOKIsStored(status: Int) {
        #expect(!policy.decision(for: response(status, ["Cache-Control": "max-age=600"]), now: now).isStore)
    }

    @Test(arguments: [
        ("max-age=600", 600.0), ("public, max-age=600", 600), ("max-age = 600", 600), ("max-age=\"600\"", 600),
        ("private, max-age=60", 60), ("s-maxage=300", 300), ("max-age=60, s-maxage=300", 60),
        ("max-age=600, max-age=30", 30), ("max-age=99999999999999999999", Double(Int32.max)),
    ])
    func maxAgeSetsTheLifetime(cacheControl: String, seconds: Double) {
        #expect(expiry(["Cache-Control": cacheControl]) == now.addingTimeInterval(seconds))
    }

    @Test func ageIsSubtractedFromMaxAge() {
        #expect(expiry(["Cache-Control": "max-age=600", "Age": "100"]) == now.addingTimeInterval(500))
    }

    @Test func maxAgeWinsOverExpires() {
        let headers: HTTPFieldList = ["Cache-Control": "max-age=60", "Expires": "Thu, 01 Jan 2037 00:00:00 GMT"]
        #expect(expiry(headers) == now.addingTimeInterval(60))
    }

    @Test func expiresIsMeasuredFromTheServersDate() {
        // The server's clock is an hour behind ours; the lifetime is what it meant: one hour.
        let headers: HTTPFieldList = [
            "Date": "Tue, 14 Nov 2023 21:13:20 GMT", "Expires": "Tue, 14 Nov 2023 22:13:20 GMT",
        ]
        #expect(expiry(headers) == now.addingTimeInterval(3600))
    }

    @Test func expiresWithoutDateIsAbsolute() {
        // now is Tue, 14 Nov 2023 22:13:20 GMT.
        #expect(expiry(["Expires": "Tue, 14 Nov 2023 22:23:20 GMT"]) == now.addingTimeInterval(600))
        #expect(expiry(["Expires": "Tuesday, 14-Nov-23 22:23:20 GMT"]) == now.addingTimeInterval(600))
        #expect(expiry(["Expires": "Tue Nov 14 22:23:20 2023"]) == now.addingTimeInterval(600))
    }

    @Test func invalidExpiresIsStaleOnArrival() {
        #expect(expiry(["Expires": "0", "ETag": "\"a\""]) == now)
        #expect(!policy.decision(for: response(200, ["Expires": "0"]), now: now).isStore)
        #expect(!policy.decision(for: response(200, ["Cache-Control": "max-age=0"]), now: now).isStore)
        #expect(!policy.decision(for: response(200, ["Cache-Control": "max-age=oops"]), now: now).isStore)
    }

    @Test func noCacheIsStoredButAlwaysRevalidated() throws {
        let decision = policy.decision(
            for: response(200, ["Cache-Control": "no-cache, max-age=600", "ETag": "\"a\""]), now: now)
        #expect(decision == .store(expiresAt: now.addingTimeInterval(600), requiresRevalidation: true))
        let entry = try #require(
            policy.entry(for: response(200, ["Cache-Control": "no-cache", "ETag": "\"a\""]), key: "k", now: now))
        #expect(!entry.isFresh(now: now))
        let pragma = policy.decision(for: response(200, ["Pragma": "no-cache", "Last-Modified": "x"]), now: now)
        #expect(pragma == .store(expiresAt: now.addingTimeInterval(7 * 24 * 3600), requiresRevalidation: true))
    }

    @Test func noCacheWithoutValidatorIsNotStored() {
        #expect(!policy.decision(for: response(200, ["Cache-Control": "no-cache"]), now: now).isStore)
    }

    @Test func varyStarIsNotStored() {
        #expect(!policy.decision(for: response(200, ["Vary": "*"]), now: now).isStore)
        #expect(policy.decision(for: response(200, ["Vary": "Accept"]), now: now).isStore)
    }

    @Test func entryKeepsTheMetadata() throws {
        let headers: HTTPFieldList = [
            "Content-Type": "image/webp", "ETag": "\"v1\"", "Last-Modified": "Mon, 13 Nov 2023 10:00:00 GMT",
            "Cache-Control": "max-age=600", "Expires": "Thu, 01 Jan 2037 00:00:00 GMT",
        ]
        let entry = try #require(policy.entry(for: response(200, headers), key: "the key", now: now))
        #expect(entry.key == "the key")
        #expect(entry.url == url)
        #expect(entry.statusCode == 200)
        #expect(entry.contentType == "image/webp")
        #expect(entry.etag == "\"v1\"")
        #expect(entry.lastModified == "Mon, 13 Nov 2023 10:00:00 GMT")
        #expect(entry.cacheControl == "max-age=600")
        #expect(entry.expires == "Thu, 01 Jan 2037 00:00:00 GMT")
        #expect(entry.storedAt == now)
        #expect(entry.expiresAt == now.addingTimeInterval(600))
        #expect(entry.data == Data("webp".utf8))
        #expect(entry.response.headers["Content-Type"] == "image/webp")
    }

    @Test func staleness() throws {
        let entry = try #require(policy.entry(for: response(200, ["Cache-Control": "max-age=60"]), key: "k", now: now))
        #expect(entry.isFresh(now: now))
        #expect(entry.isFresh(now: now.addingTimeInterval(59)))
        #expect(!entry.isFresh(now: now.addingTimeInterval(60)))
        #expect(!entry.isFresh(now: now.addingTimeInterval(3600)))
    }

    @Test func revalidationHeaders() throws {
        let both = try #require(
            policy.entry(
                for: response(200, ["ETag": "W/\"v1\"", "Last-Modified": "Mon, 13 Nov 2023 10:00:00 GMT"]), key: "k",
                now: now))
        #expect(
            policy.revalidationHeaders(for: both) == [
                "If-None-Match": "W/\"v1\"", "If-Modified-Since": "Mon, 13 Nov 2023 10:00:00 GMT",
            ])
        let tagOnly = try #require(policy.entry(for: response(200, ["ETag": "\"v1\""]), key: "k", now: now))
        #expect(policy.revalidationHeaders(for: tagOnly) == ["If-None-Match": "\"v1\""])
        let none = try #require(policy.entry(for: response(), key: "k", now: now))
        #expect(policy.revalidationHeaders(for: none).isEmpty)
        #expect(!none.hasValidator)
    }

    func storedEntry(_ headers: HTTPFieldList = ["ETag": "\"v1\"", "Cache-Control": "max-age=60"]) throws
        -> CachedEntry
    {
        try #require(policy.entry(for: response(200, headers), key: "k", now: now))
    }

    @Test func notModifiedSetsANewLifetime() throws {
        let later = now.addingTimeInterval(3600)
        let refreshed = try #require(
            policy.refreshed(
                try storedEntry(), with: response(304, ["Cache-Control": "max-age=600", "ETag": "\"v1\""]), now: later))
        #expect(refreshed.storedAt == later)
        #expect(refreshed.expiresAt == later.addingTimeInterval(600))
        #expect(refreshed.cacheControl == "max-age=600")
        #expect(refreshed.data == Data("webp".utf8))
        #expect(refreshed.isFresh(now: later.addingTimeInterval(599)))
    }

    @Test func notModifiedWithoutFreshnessReusesTheStoredCacheControl() throws {
        let later = now.addingTimeInterval(3600)
        let refreshed = try #require(policy.refreshed(try storedEntry(), with: response(304), now: later))
        #expect(refreshed.expiresAt == later.addingTimeInterval(60))
        #expect(refreshed.etag == "\"v1\"")
    }

    @Test func notModifiedUpdatesValidatorsAndExpires() throws {
        let later = now.addingTimeInterval(3600)
        let refreshed = try #require(
            policy.refreshed(
                try storedEntry(["ETag": "\"v1\""]),
                with: response(
                    304,
                    [
                        "ETag": "W/\"v1\"", "Last-Modified": "Mon, 13 Nov 2023 10:00:00 GMT",
                        "Date": "Tue, 14 Nov 2023 23:13:20 GMT", "Expires": "Tue, 14 Nov 2023 23:23:20 GMT",
                    ]), now: later))
        #expect(refreshed.etag == "W/\"v1\"")
        #expect(refreshed.lastModified == "Mon, 13 Nov 2023 10:00:00 GMT")
        #expect(refreshed.expiresAt == later.addingTimeInterval(600))
    }

    @Test func notModifiedThatCannotApplyIsRefused() throws {
        let entry = try storedEntry()
        #expect(policy.refreshed(entry, with: response(304, ["ETag": "\"v2\""]), now: now) == nil)
        #expect(policy.refreshed(entry, with: response(304, ["Cache-Control": "no-store"]), now: now) == nil)
        #expect(policy.refreshed(entry, with: response(200), now: now) == nil)
    }
}
