public import Foundation

/// What a ``CollectionPrefetcher`` prefetches through; ``ImagePipeline`` is
/// one (a test double is another).
public protocol ImagePrefetching: Sendable {
    /// Starts prefetching `requests`.
    func prefetch(_ requests: [ImageRequest])
    /// Cancels the prefetches of `requests`.
    func cancelPrefetch(_ requests: [ImageRequest])
}

extension ImagePipeline: ImagePrefetching {}

/// Prefetches a collection view's or a list's images under a
/// ``PrefetchPolicy``: the data source's `prefetchItemsAt` and
/// `cancelPrefetchingForItemsAt` call it with index paths (or requests), and
/// it prefetches only when the network's conditions allow, at their tier;
/// when the conditions turn prefetching off, the prefetches it started are
/// cancelled. Display requests go through ``displayRequest(_:)`` so they are
/// made at the same tier, and a prefetched image is a cache hit.
///
/// ```swift
/// let prefetcher = CollectionPrefetcher(prefetching: pipeline) { [items] in
///     items[$0.item].imageRequest
/// }
/// Task { await prefetcher.follow(NWPathMonitorConditions()) }
/// ```
///
/// Main-actor isolated, as a collection view's data source is. It keeps at
/// most ``maximumTracked`` started prefetches to cancel (the oldest are
/// forgotten, and have usually finished), whatever the app asks.
@MainActor
public final class CollectionPrefetcher {
    /// The most prefetches remembered for cancelling.
    public static let maximumTracked = 512

    public let policy: PrefetchPolicy
    /// The last conditions reported (``update(_:)``), `nil` before any.
    public private(set) var conditions: NetworkConditions?
    private let prefetching: any ImagePrefetching
    private let requestForItem: @MainActor (IndexPath) -> ImageRequest?
    /// The prefetches started and not cancelled, by the app's request (the
    /// value is the request sent, at its tier and priority), oldest first.
    private var started: [ImageRequest: ImageRequest] = [:]
    private var startOrder: [ImageRequest] = []

    /// A prefetcher through `prefetching` under `policy`; `request` names
    /// the image of an item (`nil`: none).
    public init(
        prefetching: any ImagePrefetching, policy: PrefetchPolicy = PrefetchPolicy(),
        request: @escaping @MainActor (IndexPath) -> ImageRequest? = { _ in nil }
    ) {
        self.prefetching = prefetching
        self.policy = policy
        self.requestForItem = request
    }

    /// The policy's decision for the current conditions.
    public var decision: PrefetchPolicy.Decision { policy.decision(for: conditions) }

    /// How many started prefetches are remembered for cancelling.
    public var trackedCount: Int { startOrder.count }

    /// `request` at the current tier: what a view should display, so that
    /// it shares a prefetch's cache entry.
    public func displayRequest(_ request: ImageRequest) -> ImageRequest {
        policy.request(request, at: decision.tier)
    }

    /// Prefetches the images of the items at `indexPaths`, if the conditions allow.
    public func prefetchItems(at indexPaths: [IndexPath]) {
        prefetch(indexPaths.compactMap(requestForItem))
    }

    /// Cancels the prefetches of the items at `indexPaths`.
    public func cancelPrefetchingForItems(at indexPaths: [IndexPath]) {
        cancelPrefetch(indexPaths.compactMap(requestForItem))
    }

    /// Prefetches `requests`, if the conditions allow, at their tier and the
    /// policy's prefetch priority.
    public func prefetch(_ requests: [ImageRequest]) {
        let decision = decision
        guard decision.prefetches, !requests.isEmpty else { return }
        var sent: [ImageRequest] = []
        for request in requests {
            let prefetch = policy.prefetchRequest(request, at: decision.tier)
            if started.updateValue(prefetch, forKey: request) == nil {
                startOrder.append(request)
            }
            sent.append(prefetch)
        }
        if startOrder.count > Self.maximumTracked {
            for forgotten in startOrder.prefix(startOrder.count - Self.maximumTracked) {
                started[forgotten] = nil
            }
            startOrder.removeFirst(startOrder.count - Self.maximumTracked)
        }
        prefetching.prefetch(sent)
    }

    /// Cancels the prefetches of `requests` this prefetcher started.
    public func cancelPrefetch(_ requests: [ImageRequest]) {
        let sent = requests.compactMap { started.removeValue(forKey: $0) }
        guard !sent.isEmpty else { return }
        let cancelled = Set(requests)
        startOrder.removeAll { cancelled.contains($0) }
        prefetching.cancelPrefetch(sent)
    }

    /// Takes new conditions: when they stop prefetching or change its tier,
    /// the prefetches started under the old ones are cancelled.
    public func update(_ conditions: NetworkConditions) {
        let old = decision
        self.conditions = conditions
        let new = decision
        guard old != new, !started.isEmpty, !new.prefetches || new.tier != old.tier else { return }
        let sent = startOrder.compactMap { started[$0] }
        started = [:]
        startOrder = []
        prefetching.cancelPrefetch(sent)
    }

    /// Follows `source`'s conditions until its stream ends or the calling
    /// task is cancelled.
    public func follow(_ source: some NetworkConditionSource) async {
        for await conditions in source.conditions() {
            update(conditions)
        }
    }
}
