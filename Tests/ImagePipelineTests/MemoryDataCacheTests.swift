import Foundation
import TestTraits
import Testing
import WebPBridge

/// The in-memory bytes cache the proxy uses without `--cache-dir`.
@Suite(.timeLimit(.suiteBound))
struct MemoryDataCacheTests {
    private func response(_ bytes: Int, cacheControl: String = "max-age=600") -> DataResponse {
        DataResponse(
            url: URL(string: "http://img.test/a.jpg")!, statusCode: 200, headers: ["Cache-Control": cacheControl],
            body: Data(repeating: 7, count: bytes))
    }

    /// What one entry of `bytes` body bytes under a key of `keyBytes` bytes is charged.
    private func charge(_ bytes: Int, keyBytes: Int = 1) -> Int {
        let probe = MemoryDataCache(capacity: 1 << 20)
        probe.store(response(bytes), for: String(repeating: "k", count: keyBytes), now: Date())
        return probe.totalBytes
    }

    @Test func evictsTheLeastRecentlyUsedPastItsCapacity() {
        let entry = charge(100)
        #expect(entry > 100 + "http://img.test/a.jpg".utf8.count, "the URL, the key and the bookkeeping are charged")
        let cache = MemoryDataCache(capacity: 2 * entry + entry / 2)
        let now = Date()
        #expect(cache.store(response(100), for: "a", now: now))
        #expect(cache.store(response(100), for: "b", now: now))
        _ = cache.entry(for: "a")
        #expect(cache.store(response(100), for: "c", now: now))
        #expect(cache.entry(for: "b") == nil, "b was the least recently used")
        #expect(cache.entry(for: "a") != nil && cache.entry(for: "c") != nil)
        #expect(cache.totalBytes == 2 * entry)
        #expect(!cache.store(response(3 * entry), for: "big", now: now), "bigger than the whole cache")
        #expect(!cache.store(response(10, cacheControl: "no-store"), for: "a", now: now))
        #expect(cache.entry(for: "a") == nil, "a refused 200 supersedes the old entry")
    }

    /// 50,000 stores into room for 1,000: the bounds hold at every step, and
    /// what is left is exactly the newest thousand. (Before eviction was O(1)
    /// each store past the capacity scanned every entry.)
    @Test func manyMoreEntriesThanFitStayWithinTheBounds() {
        let bodyBytes = 64
        // Keys of one length (7 bytes), so every entry is charged the same.
        func key(_ index: Int) -> String { "k" + String(100_000 + index) }
        let entry = charge(bodyBytes, keyBytes: 7)
        let cache = MemoryDataCache(capacity: 1_000 * entry)
        let now = Date()
        let stored = 50_000
        var withinBounds = true
        for index in 0..<stored {
            #expect(cache.store(response(bodyBytes), for: key(index), now: now))
            withinBounds = withinBounds && cache.totalBytes <= cache.capacity && cache.count <= 1_000
        }
        #expect(withinBounds, "never past the capacity")
        #expect(cache.count == 1_000 && cache.totalBytes == 1_000 * entry)
        #expect(cache.entry(for: key(stored - 1_000 - 1)) == nil, "the oldest are gone")
        #expect((stored - 1_000..<stored).allSatisfy { cache.entry(for: key($0)) != nil }, "the newest are all there")
        #expect(cache.store(response(bodyBytes), for: "another", now: now))
        #expect(cache.entry(for: key(stored - 1_000)) == nil, "reads made the first of them the oldest")
        #expect(cache.count == 1_000)
    }
}
