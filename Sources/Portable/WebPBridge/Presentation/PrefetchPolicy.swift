/// Decides from the network's conditions whether to prefetch images and at
/// which variant tier to ask for them: the seed's "preload on Wi-Fi only",
/// with Low Data Mode and offline added.
///
/// - none reported yet: off, full tier (nothing is known; a display request
///   still loads);
/// - offline (unsatisfied, requires connection): off, full (nothing can
///   arrive; the caches answer displays);
/// - unmetered (Wi-Fi, Ethernet): on at ``prefetchPriority``, full (the
///   seed's rule);
/// - expensive (cellular, hotspot): ``prefetchesOnExpensive`` (off by
///   default), full (an image the user never scrolls to is paid for; the
///   seed did not preload there);
/// - constrained (Low Data Mode), expensive or not: off, reduced (the user
///   asked for less data: no speculative fetches, smaller images).
///
/// The reduced tier scales each request's ``ImageRequest/targetSize`` by
/// ``reducedScale`` (half by default: a quarter of the pixels decoded and
/// kept in memory; a request with no target size keeps none) and, with
/// ``reducedSavesData`` (the default), asks for the smaller answer:
/// ``ImageRequest/savesData``, sent as `Save-Data: on`, which an origin that
/// honours it answers with a lower quality and a smaller width, kept under
/// its own cache key (docs/apple.md).
public struct PrefetchPolicy: Sendable, Hashable {
    /// The variant tier a request is made at.
    public enum Tier: Sendable, Hashable {
        /// The request as the app built it.
        case full
        /// A smaller target size (``PrefetchPolicy/reducedScale``) and,
        /// with ``PrefetchPolicy/reducedSavesData``, `Save-Data: on`.
        case reduced
    }

    /// What the policy decides for one set of conditions.
    public struct Decision: Sendable, Hashable {
        /// Whether prefetches start.
        public var prefetches: Bool
        /// The tier of display and prefetch requests.
        public var tier: Tier

        public init(prefetches: Bool, tier: Tier) {
            self.prefetches = prefetches
            self.tier = tier
        }
    }

    /// Whether to prefetch on an expensive link (cellular, hotspot) that is
    /// not constrained. Default `false`, the seed's rule.
    public var prefetchesOnExpensive: Bool
    /// The priority of prefetch requests. Default ``ImageRequest/Priority/low``,
    /// below every display request.
    public var prefetchPriority: ImageRequest.Priority
    /// The factor applied to a target size at the reduced tier, in (0, 1].
    public var reducedScale: Double
    /// Whether requests at the reduced tier save data
    /// (``ImageRequest/savesData``). Default `true`.
    public var reducedSavesData: Bool

    /// A policy; `reducedScale` is clamped to 0.05–1 (a non-finite value
    /// counts as 1).
    public init(
        prefetchesOnExpensive: Bool = false, prefetchPriority: ImageRequest.Priority = .low,
        reducedScale: Double = 0.5, reducedSavesData: Bool = true
    ) {
        self.prefetchesOnExpensive = prefetchesOnExpensive
        self.prefetchPriority = prefetchPriority
        self.reducedScale = reducedScale.isFinite ? min(max(reducedScale, 0.05), 1) : 1
        self.reducedSavesData = reducedSavesData
    }

    /// The decision for `conditions` (`nil`: none reported yet).
    public func decision(for conditions: NetworkConditions?) -> Decision {
        guard let conditions, conditions.status == .satisfied else { return Decision(prefetches: false, tier: .full) }
        if conditions.isConstrained { return Decision(prefetches: false, tier: .reduced) }
        if conditions.isExpensive { return Decision(prefetches: prefetchesOnExpensive, tier: .full) }
        return Decision(prefetches: true, tier: .full)
    }

    /// `request` at `tier`.
    public func request(_ request: ImageRequest, at tier: Tier) -> ImageRequest {
        guard tier == .reduced else { return request }
        var reduced = request
        reduced.savesData = request.savesData || reducedSavesData
        if let size = request.targetSize {
            reduced.targetSize = ImageRequest.TargetSize(
                width: Int((Double(size.width) * reducedScale).rounded(.up)),
                height: Int((Double(size.height) * reducedScale).rounded(.up)))
        }
        return reduced
    }

    /// The prefetch request for `request` at `tier`: that tier, at
    /// ``prefetchPriority``.
    public func prefetchRequest(_ request: ImageRequest, at tier: Tier) -> ImageRequest {
        var prefetch = self.request(request, at: tier)
        prefetch.priority = prefetchPriority
        return prefetch
    }
}
