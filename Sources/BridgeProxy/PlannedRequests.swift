import CacheSupport
import ConcurrencySupport
import Foundation
import HTTPFields
import HTTPServer
import ImageDelivery

/// Plans made on the server's thread for requests it then hands to the
/// asynchronous path: ``BridgeProxy/immediateResponse(to:)`` plans an image
/// request to look in the cache, and on a miss ``BridgeProxy/handle(_:)``
/// takes the plan here instead of planning again.
///
/// Keyed by the request's method, target and every field: a plan is a pure
/// function of those, so two identical requests in flight share one entry
/// safely (the second to arrive at `handle` plans again). An entry is taken
/// once. Bounded in bytes, keys counted by their bytes (an `LRUStore`): one
/// left behind by a request that never reached `handle` (a server shutting
/// down) is pushed out by newer ones; a request whose key passes 4 KiB is
/// not kept and is planned again.
final class PlannedRequests: Sendable {
    /// 1 MiB: some 500 misses in flight at once.
    static let defaultCapacityBytes = 1 << 20

    private let plans: Lock<LRUStore<DeliveryPlan>>

    init(capacityBytes: Int = PlannedRequests.defaultCapacityBytes) {
        plans = Lock(LRUStore(capacity: capacityBytes))
    }

    /// Keeps `plan` for `request`'s asynchronous turn.
    func keep(_ plan: DeliveryPlan, for request: HTTPRequest) {
        guard let key = Self.key(for: request) else { return }
        plans.withLock { _ = $0.insert(plan, for: key, cost: Self.cost(of: plan)) }
    }

    /// The plan kept for `request`, removed; `nil` when there is none.
    func take(for request: HTTPRequest) -> DeliveryPlan? {
        guard let key = Self.key(for: request) else { return nil }
        return plans.withLock { $0.remove(key) }
    }

    /// Plans kept now.
    var count: Int { plans.withLock { $0.count } }

    /// Bytes accounted now, keys included.
    var totalBytes: Int { plans.withLock { $0.totalCost } }

    /// What a plan holds besides its key: its URLs and keys (each about the
    /// URL's length), the request's fields, and 512 for the values around them.
    private static func cost(of plan: DeliveryPlan) -> Int {
        6 * plan.request.url.absoluteString.utf8.count + plan.request.fields.encodedByteCount
            + 32 * plan.request.fields.count + 512
    }

    private static func key(for request: HTTPRequest) -> String? {
        var length = request.method.rawValue.utf8.count + request.target.utf8.count + 2
        length += request.headers.encodedByteCount + 2 * request.headers.count
        guard length <= LRUStore<DeliveryPlan>.defaultMaxKeyBytes else { return nil }
        var key = request.method.rawValue
        key.reserveCapacity(length)
        key += "\0" + request.target + "\0"
        for field in request.headers {
            key += field.name
            key += "\0"
            key += field.value
            key += "\0"
        }
        return key
    }
}
