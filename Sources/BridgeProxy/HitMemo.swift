import CacheSupport
import ConcurrencySupport
import Foundation
import HTTPServer
import ImagePipeline

/// Ready answers to repeated cache hits, so that the same client asking
/// for the same image again skips routing, rewriting and building the
/// response: a browser asks for every image of a page with one
/// `User-Agent` and one `Accept`.
///
/// Keyed by everything the answer can depend on — method, `Host`, target,
/// `Accept`, `User-Agent` — so no knowledge of the client policy is
/// duplicated here. Requests with `Via`, `Cache-Control` or a
/// conditional header are never memoised (loops, `no-transform` and 304s
/// take the full path). A memoised answer is served only while the data
/// cache still holds the same entry (same `storedAt`), fresh: an eviction,
/// a removal, a failed variant or a new store sends the request down the
/// full path again.
///
/// Bounded in bytes, each answer charged in full: its key (which holds the
/// client's `User-Agent` and `Accept`), the response's headers and body,
/// the cache key and URL it came from, and the store's bookkeeping. The
/// bodies are usually the data cache's own storage, shared, but a memoised
/// answer can outlive its cache entry, so they are charged too. A key
/// longer than 4 KiB (`LRUStore.defaultMaxKeyBytes`) is never memoised:
/// such a request takes the full path every time.
final class HitMemo: Sendable {
    struct Hit: Sendable {
        var reply: BridgeProxy.Reply
        /// The data-cache hit the reply was built from (its `storedAt` names the entry).
        var image: ImageDataResponse

        /// The bytes held besides the key: the reply's headers and body, the
        /// image's cache key, URL and headers, and 256 for the heap objects.
        var heldBytes: Int {
            var bytes =
                MemoryLayout<Hit>.stride + 256 + image.cacheKey.utf8.count
                + image.fetchedURL.absoluteString.utf8.count
            for field in reply.response.headers { bytes += field.name.utf8.count + field.value.utf8.count + 32 }
            for (name, value) in image.headers { bytes += name.utf8.count + value.utf8.count + 32 }
            // The image's bytes are the reply's body, shared: counted once.
            var body = image.data.count
            if case .data(let data) = reply.response.body { body = max(body, data.count) }
            return bytes + body
        }
    }

    private let store: Lock<LRUStore<Hit>>

    init(capacityBytes: Int) {
        store = Lock(LRUStore(capacity: capacityBytes))
    }

    /// The memo key of `request`, or `nil` when it must take the full path.
    static func key(for request: HTTPRequest) -> String? {
        guard request.method == .get || request.method == .head else { return nil }
        let headers = request.headers
        guard headers["Via"] == nil, headers["Cache-Control"] == nil, headers["If-None-Match"] == nil,
            headers["If-Modified-Since"] == nil
        else { return nil }
        let host = headers["Host"] ?? ""
        let accept = headers["Accept"] ?? ""
        let userAgent = headers["User-Agent"] ?? ""
        // A key the store would refuse is not even built: such requests take the full path.
        let length =
            request.method.rawValue.utf8.count + host.utf8.count + request.target.utf8.count + accept.utf8.count
            + userAgent.utf8.count + 4
        guard length <= LRUStore<Hit>.defaultMaxKeyBytes else { return nil }
        return request.method.rawValue + "\u{0}" + host + "\u{0}" + request.target + "\u{0}" + accept + "\u{0}"
            + userAgent
    }

    /// The memoised answer for `key`, if the data cache still holds its entry fresh.
    func hit(for key: String, in cache: any DataCaching, now: Date) -> Hit? {
        guard let hit = store.withLock({ $0.value(for: key) }) else { return nil }
        guard let entry = cache.entry(for: hit.image.cacheKey), entry.storedAt == hit.image.storedAt,
            entry.isFresh(now: now)
        else {
            _ = store.withLock { $0.remove(key) }
            return nil
        }
        return hit
    }

    /// Keeps `reply` for `key`, tied to the data-cache entry `image` came
    /// from (its `storedAt`); an image that did not come from the data
    /// cache is not kept.
    func insert(_ reply: BridgeProxy.Reply, image: ImageDataResponse, for key: String) {
        guard image.storedAt != nil else { return }
        let hit = Hit(reply: reply, image: image)
        _ = store.withLock { $0.insert(hit, for: key, cost: hit.heldBytes) }
    }

    /// Bytes accounted and answers held.
    var usage: (bytes: Int, count: Int) { store.withLock { ($0.totalCost, $0.count) } }
}
