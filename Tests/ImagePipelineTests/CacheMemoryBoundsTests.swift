import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// Floods of distinct long keys: every store on the pipeline's request path
/// stays within its bound in bytes, keys included.
@Suite(.timeLimit(.suiteBound))
struct CacheMemoryBoundsTests {
    private func key(_ index: Int, bytes: Int) -> String {
        let suffix = String(index)
        return "http://img.test/a.jpg?" + String(repeating: "q", count: bytes - 22 - suffix.utf8.count) + suffix
    }

    @Test func theDataCacheChargesKeysAndMetadata() {
        let cache = MemoryDataCache(capacity: 1 << 20)
        let now = Date()
        let keyBytes = 3_000
        for index in 0..<2_000 {
            let key = key(index, bytes: keyBytes)
            let response = DataResponse(
                url: URL(string: key)!, statusCode: 200, headers: ["Cache-Control": "max-age=600"],
                body: Data(repeating: 7, count: 10))
            cache.store(response, for: key, now: now)
        }
        // Each entry holds its key and its URL: twice the key's bytes.
        #expect(cache.count * 2 * keyBytes <= cache.capacity, "\(cache.count) entries")
        #expect(cache.totalBytes >= cache.count * (2 * keyBytes + 10))
        let long = "http://img.test/a.jpg?" + String(repeating: "q", count: 12_000)
        let refused = DataResponse(
            url: URL(string: long)!, statusCode: 200, headers: ["Cache-Control": "max-age=600"], body: Data([1]))
        #expect(!cache.store(refused, for: long, now: now), "a 12 KB key is not cached")
    }

    @Test func theDiskCacheRefusesKeysPastTheBound() throws {
        let folder = try TemporaryDirectory(prefix: "disk-keys")
        let cache = try DiskCache(folder: folder.url)
        let now = Date()
        for (keyBytes, kept) in [(4_000, true), (12_000, false)] {
            let key = key(keyBytes, bytes: keyBytes)
            let response = DataResponse(
                url: URL(string: "http://img.test/a.jpg")!, statusCode: 200, headers: ["Cache-Control": "max-age=600"],
                body: Data([1, 2, 3]))
            #expect(cache.store(response, for: key, now: now) == kept, "a key of \(keyBytes) bytes")
            #expect((cache.entry(for: key) != nil) == kept)
        }
    }

    /// Tiny entries: the disk holds them easily, but each costs an index
    /// record in memory, so their number is bounded too (one per 4 KiB of
    /// capacity, at least 1,024).
    @Test func theDiskCacheIndexIsBoundedInEntries() throws {
        let folder = try TemporaryDirectory(prefix: "disk-index")
        let capacity = 8 << 20
        let cache = try DiskCache(folder: folder.url, configuration: .init(capacity: capacity))
        let now = Date()
        for index in 0..<5_000 {
            let response = DataResponse(
                url: URL(string: "http://img.test/\(index).jpg")!, statusCode: 200,
                headers: ["Cache-Control": "max-age=600"], body: Data([1]))
            cache.store(response, for: "http://img.test/\(index).jpg", now: now)
        }
        #expect(cache.count <= capacity / 4_096, "\(cache.count) entries in \(cache.totalBytes) bytes")
        #expect(cache.entry(for: "http://img.test/4999.jpg") != nil, "the newest is kept")
    }

    @Test func theDecodedImageCacheChargesKeys() {
        let cache = MemoryCache(capacity: 1 << 20)
        let image = DecodedImage.still(Image(width: 1, height: 1, filledWith: (1, 2, 3, 255)))
        let keyBytes = 3_000
        for index in 0..<2_000 { cache.insert(image, for: key(index, bytes: keyBytes)) }
        #expect(cache.usage.count * keyBytes <= cache.capacity, "\(cache.usage.count) entries")
        #expect(cache.usage.bytes >= cache.usage.count * (keyBytes + 4))
        cache.insert(image, for: key(0, bytes: 12_000))
        #expect(cache.image(for: key(0, bytes: 12_000)) == nil, "a 12 KB key is not cached")
    }

    @Test func theNegativeCacheIsBoundedInBytes() {
        let cache = NegativeCache(lifetime: 300)
        let now = Date()
        let keyBytes = 3_000
        for index in 0..<20_000 { cache.insert(key(index, bytes: keyBytes), now: now) }
        #expect(
            cache.count * keyBytes <= NegativeCache.defaultCapacityBytes, "\(cache.count) keys of \(keyBytes) bytes")
        #expect(cache.count > 0 && cache.totalBytes <= NegativeCache.defaultCapacityBytes)
        #expect(cache.totalBytes >= cache.count * keyBytes, "keys are charged")
        // The least recently used went first: the newest key is still remembered.
        #expect(cache.contains(key(19_999, bytes: keyBytes), now: now))
        #expect(!cache.contains(key(0, bytes: keyBytes), now: now))
        cache.insert(key(0, bytes: 12_000), now: now)
        #expect(!cache.contains(key(0, bytes: 12_000), now: now), "a 12 KB key is not kept")
    }

    @Test func theNegativeCacheForgetsAKeyAfterItsLifetime() {
        let cache = NegativeCache(lifetime: 300)
        let now = Date()
        cache.insert("http://img.test/a.jpg", now: now)
        #expect(cache.contains("http://img.test/a.jpg", now: now.addingTimeInterval(299)))
        #expect(!cache.contains("http://img.test/a.jpg", now: now.addingTimeInterval(300)))
        #expect(cache.count == 0 && cache.totalBytes == 0, "an expired key is dropped when found")
    }

    @Test func theTrafficMeterKeepsABoundedHostTable() {
        let meter = TrafficMeter()
        for index in 0..<5_000 { meter.recordNetwork(host: "h\(index).img.test", format: "webp", bytes: 1) }
        let snapshot = meter.snapshot
        #expect(
            snapshot.networkBytesByHost.count <= TrafficMeter.maxHosts + 1, "\(snapshot.networkBytesByHost.count) hosts"
        )
        #expect(snapshot.networkBytesByHost.values.reduce(0, +) == 5_000, "every byte is still counted")
    }
}
