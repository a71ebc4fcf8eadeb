import Foundation
import HTTPServer
import WebPBridge

/// Routes planned on the server's thread for requests it then hands to the
/// asynchronous path: ``BridgeProxy/immediateResponse(to:)`` routes every
/// request (an image request planned, to look in the cache), and when it
/// declines ``BridgeProxy/handle(_:)`` takes the route here instead of
/// routing and planning again.
///
/// Keyed by the request's method, target and every field: a plan is a pure
/// function of those, so two identical requests in flight share one entry
/// safely (the second to arrive at `handle` plans again). An entry is taken
/// once. Bounded in bytes, keys counted by their bytes (an `LRUStore`): one
/// left behind by a request that never reached `handle` (a server shutting
/// down) is pushed out by newer ones; a request whose key passes 4 KiB is
/// not kept and is planned again.
final class PlannedRequests: Sendable {
    private let plans: Lock<LRUStore<BridgeProxy.Route>>

    /// - Parameter capacityBytes: The most bytes held, keys included: the
    ///   budget's ``BridgeProxy/MemoryBudget/plannedRequestsBytes`` (1 MiB of
    ///   the default 256, some 500 requests in flight at once).
    init(capacityBytes: Int) {
        plans = Lock(LRUStore(capacity: capacityBytes))
    }

    /// Keeps `route` for `request`'s asynchronous turn.
    func keep(_ route: BridgeProxy.Route, for request: HTTPRequest) {
        guard let key = Self.key(for: request) else { return }
        plans.withLock { _ = $0.insert(route, for: key, cost: Self.cost(of: route)) }
    }

    /// The route kept for `request`, removed; `nil` when there is none.
    func take(for request: HTTPRequest) -> BridgeProxy.Route? {
        guard let key = Self.key(for: request) else { return nil }
        return plans.withLock { $0.remove(key) }
    }

    /// Routes kept now.
    var count: Int { plans.withLock { $0.count } }

    /// Bytes accounted now, keys included.
    var totalBytes: Int { plans.withLock { $0.totalCost } }

    /// What a route holds besides its key: its URLs and keys (each about
    /// the URL's length), the request's fields, and 512 for the values
    /// around them.
    private static func cost(of route: BridgeProxy.Route) -> Int {
        let request: DeliveryRequest
        switch route {
        case .image(let plan): request = plan.request
        case .passThrough(_, _, let facts, _): request = facts
        case .ready: return 512
        }
        return 6 * request.url.absoluteString.utf8.count + request.fields.encodedByteCount + 32 * request.fields.count
            + 512
    }

    private static func key(for request: HTTPRequest) -> String? {
        var length = request.method.rawValue.utf8.count + request.target.utf8.count + 2
        length += request.headers.encodedByteCount + 2 * request.headers.count
        guard length <= LRUStore<BridgeProxy.Route>.defaultMaxKeyBytes else { return nil }
        // One byte buffer made a string once, as HitMemo's key is (appending strings paid a growth
        // check and a copy per piece); NUL between the pieces, which no request head holds.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        bytes.appendUTF8(of: request.method.rawValue)
        bytes.append(0)
        bytes.appendUTF8(of: request.target)
        bytes.append(0)
        for field in request.headers {
            bytes.appendUTF8(of: field.name)
            bytes.append(0)
            bytes.appendUTF8(of: field.value)
            bytes.append(0)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
