import Foundation
import HTTPServer
import WebPBridge

/// Ready answers to repeated cache hits, so that the same client asking
/// for the same image again skips routing, rewriting and building the
/// response: a browser asks for every image of a page with one
/// `User-Agent` and one `Accept`. A transcode made from a data-cache entry
/// (for a client that cannot show the variant) is such an answer too.
///
/// Keyed by everything the answer can depend on — method, `Host`, target,
/// `Accept`, `User-Agent`, `Save-Data` (as sent) — so no knowledge of the client policy is
/// duplicated here. Requests with `Via`, `Cache-Control` or a
/// conditional header are never memoised (loops, `no-transform` and 304s
/// take the full path). A memoised answer is served only while the data
/// cache still holds the same entry (same `storedAt`), fresh: an eviction,
/// a removal, a failed variant or a new store sends the request down the
/// full path again.
///
/// A memoised answer's body is ``BodyBytes``, filled once per image
/// version (cache key and `storedAt`) and `Content-Type` (the WebP, or its
/// transcode) and shared by every answer built from that version in that
/// type, so a memo hit is sent without copying the body. The
/// shared bodies are found through a table holding one entry per image
/// version some answer holds, dropped with the last such answer: it is
/// never larger than the memo.
///
/// Bounded in bytes, each answer charged in full: its key (which holds the
/// client's `User-Agent` and `Accept`), the response's headers and body,
/// the cache key and URL it came from, and the store's bookkeeping. A body
/// shared by several answers is charged to each, and one held after its
/// cache entry went is charged all the same. The image's own bytes are not
/// held (only their size, for the pipeline's traffic figures). A key longer than
/// 4 KiB (`LRUStore.defaultMaxKeyBytes`) is never memoised: such a request
/// takes the full path every time.
final class HitMemo: Sendable {
    /// A memoised answer. A class, so that a hit copies one reference out
    /// of the memo rather than the reply, image and headers field by field.
    final class Hit: Sendable {
        let reply: BridgeProxy.Reply
        /// The data-cache hit the reply was built from (its `storedAt`
        /// names the entry); its `data` is left empty while memoised.
        let image: ImageDataResponse
        /// The size of the image's bytes in the data cache, for the
        /// pipeline's traffic figures (the memo does not hold the bytes).
        let imageBytes: Int
        /// The image version whose shared body the reply holds, if any.
        fileprivate let sharedBody: ImageVersion?
        /// The reply's response, built once for libmicrohttpd; set when kept.
        let prepared: PreparedResponse?

        fileprivate init(
            reply: BridgeProxy.Reply, image: ImageDataResponse, imageBytes: Int, sharedBody: ImageVersion? = nil,
            prepared: PreparedResponse? = nil
        ) {
            (self.reply, self.image, self.imageBytes) = (reply, image, imageBytes)
            (self.sharedBody, self.prepared) = (sharedBody, prepared)
        }

        /// The response to send: the prepared one when kept.
        var response: HTTPResponse { prepared.map { .prepared($0) } ?? reply.response }

        /// The bytes an answer of `reply` from `image` holds besides its key:
        /// the reply's headers (twice: the prepared libmicrohttpd response
        /// holds its own copy) and body, the image's cache key, URL and
        /// headers, and 256 for the heap objects.
        fileprivate static func heldBytes(reply: BridgeProxy.Reply, image: ImageDataResponse) -> Int {
            var bytes =
                MemoryLayout<ImageDataResponse>.stride + MemoryLayout<BridgeProxy.Reply>.stride + 256
                + image.cacheKey.utf8.count + image.fetchedURL.absoluteString.utf8.count
            bytes += 2 * (reply.response.headers.encodedByteCount + 32 * reply.response.headers.count)
            bytes += image.headers.encodedByteCount + 32 * image.headers.count
            switch reply.response.body {
            case .data(let data): bytes += data.count
            case .bytes(let body): bytes += body.count
            case .empty, .file: break
            }
            return bytes
        }
    }

    /// One version of one image in the data cache, as delivered in one
    /// `Content-Type`: the WebP as received, or its transcode.
    fileprivate struct ImageVersion: Hashable {
        var cacheKey: String
        var storedAt: Date
        var contentType: String?
    }

    /// The body every answer built from one image version shares, and how
    /// many answers hold it.
    private struct SharedBody {
        var bytes: BodyBytes
        var holders: Int
    }

    private struct State {
        var hits: LRUStore<Hit>
        var bodies: [ImageVersion: SharedBody] = [:]

        /// Keeps an answer of `reply` built from `image` under `key`, its body
        /// the one shared for its image version if there is one; returns the
        /// answer as kept (prepared), or unkept when the memo refuses it.
        mutating func insert(
            _ reply: BridgeProxy.Reply, image: ImageDataResponse, imageBytes: Int, version: ImageVersion,
            for key: String
        ) -> Hit {
            if let replaced = hits.remove(key) { release(replaced) }
            let cost = Hit.heldBytes(reply: reply, image: image)
            guard hits.admits(key: key, cost: cost) else {
                return Hit(reply: reply, image: image, imageBytes: imageBytes)
            }
            var reply = reply
            if let shared = bodies[version] {
                reply.response.body = .bytes(shared.bytes)
                bodies[version]?.holders += 1
            } else if case .bytes(let bytes) = reply.response.body {
                bodies[version] = SharedBody(bytes: bytes, holders: 1)
            }
            // Built under the lock, once per kept answer: a few allocations.
            let hit = Hit(
                reply: reply, image: image, imageBytes: imageBytes, sharedBody: version,
                prepared: PreparedResponse(reply.response))
            for evicted in hits.insert(hit, for: key, cost: cost) { release(evicted.value) }
            return hit
        }

        mutating func remove(_ key: String) {
            if let removed = hits.remove(key) { release(removed) }
        }

        /// Lets go of the shared body `hit` held, dropping it with its last holder.
        private mutating func release(_ hit: Hit) {
            guard let version = hit.sharedBody, let shared = bodies[version] else { return }
            if shared.holders > 1 { bodies[version]?.holders -= 1 } else { bodies[version] = nil }
        }
    }

    private let state: Lock<State>

    init(capacityBytes: Int) {
        state = Lock(State(hits: LRUStore(capacity: capacityBytes)))
    }

    /// The memo key of `request` as `bridge` plans it now: with the link's
    /// tier (``ImageBridge/linkTier``: an answer made at the full tier never
    /// answers a request planned at the reduced one, nor the other way) and
    /// the width bucket its hints ask for (``ImageBridge/widthHint(_:)``,
    /// `nil` unless passed on), both read only for a request the memo could
    /// answer; `nil` when it must take the full path.
    static func key(for request: HTTPRequest, planning bridge: ImageBridge) -> String? {
        guard request.method == .get || request.method == .head else { return nil }
        let headers = request.headers
        guard headers["Via"] == nil, headers["Cache-Control"] == nil, headers["If-None-Match"] == nil,
            headers["If-Modified-Since"] == nil
        else { return nil }
        let host = headers["Host"] ?? ""
        // All of it, as the policy reads it: a second `Accept` line can name WebP.
        let accept = headers.combinedValue(for: "Accept") ?? ""
        let userAgent = headers["User-Agent"] ?? ""
        // Under `proxy --save-data` the answer depends on it; as sent, so no parsing is repeated here.
        let saveData = headers.combinedValue(for: ClientHints.saveDataFieldName) ?? ""
        // Under `proxy --client-hints`, the bucket the hints name: what the answer depends on.
        let hint = bridge.widthHint(headers).map { String($0) } ?? ""
        let tier = bridge.linkTier
        // A key the store would refuse is not even built: such requests take the full path.
        let length =
            request.method.rawValue.utf8.count + host.utf8.count + request.target.utf8.count + accept.utf8.count
            + userAgent.utf8.count + saveData.utf8.count + hint.utf8.count + 7
        guard length <= LRUStore<Hit>.defaultMaxKeyBytes else { return nil }
        // The pieces' bytes into one buffer, made a string once: appending
        // strings paid a growth check and a copy per piece (callgrind).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        // NUL between the pieces: no field or target holds one.
        bytes.appendUTF8(of: request.method.rawValue)
        bytes.append(0)
        bytes.appendUTF8(of: host)
        bytes.append(0)
        bytes.appendUTF8(of: request.target)
        bytes.append(0)
        bytes.appendUTF8(of: accept)
        bytes.append(0)
        bytes.appendUTF8(of: userAgent)
        bytes.append(0)
        bytes.appendUTF8(of: saveData)
        bytes.append(0)
        bytes.append(tier == .full ? UInt8(ascii: "f") : UInt8(ascii: "r"))
        bytes.appendUTF8(of: hint)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The memoised answer for `key`, if the data cache still holds its
    /// entry fresh.
    func hit(for key: String, in cache: any DataCaching, now: Date) -> Hit? {
        guard let hit = state.withLock({ $0.hits.value(for: key) }) else { return nil }
        guard let entry = cache.entry(for: hit.image.cacheKey), entry.storedAt == hit.image.storedAt,
            entry.isFresh(now: now)
        else {
            state.withLock { $0.remove(key) }
            return nil
        }
        return hit
    }

    /// Keeps `reply`, as it is to be sent, for `key`, tied to the
    /// data-cache entry `image` came from (its `storedAt`); an image that
    /// did not come from the data cache is not kept.
    /// - Returns: The answer to send: as kept, its `Data` body replaced by
    ///   the image version's shared ``BodyBytes`` (copied in here when no
    ///   answer holds them yet, outside the lock), its response prepared.
    func insert(_ reply: BridgeProxy.Reply, image: ImageDataResponse, for key: String) -> Hit {
        guard let storedAt = image.storedAt else {
            return Hit(reply: reply, image: image, imageBytes: image.data.count)
        }
        let version = ImageVersion(
            cacheKey: image.cacheKey, storedAt: storedAt, contentType: reply.response.headers["Content-Type"])
        var kept = image
        kept.data = Data()
        var reply = reply
        if case .data(let data) = reply.response.body {
            let shared = state.withLock { $0.bodies[version]?.bytes }
            reply.response.body = .bytes(shared ?? BodyBytes(data))
        }
        return state.withLock {
            $0.insert(reply, image: kept, imageBytes: image.data.count, version: version, for: key)
        }
    }

    /// Bytes accounted and answers held.
    var usage: (bytes: Int, count: Int) { state.withLock { ($0.hits.totalCost, $0.hits.count) } }

    /// Image versions whose body some answer holds, shared.
    var sharedBodies: Int { state.withLock { $0.bodies.count } }
}
