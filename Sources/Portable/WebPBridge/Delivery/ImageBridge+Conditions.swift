extension ImageBridge {
    /// Takes the conditions of the app's link: from the next request on,
    /// ``route(_:)`` plans every image at ``Configuration/linkPolicy``'s
    /// tier for them. In Low Data Mode the web view's and the URL
    /// protocol's images are then fetched with `Save-Data: on` under their
    /// own cache key (``ImageRequest/savesData``), as the app's native views
    /// are by their ``CollectionPrefetcher``. A request already on its way
    /// keeps the tier it was planned at.
    public func update(_ conditions: NetworkConditions) {
        link.withLock { $0 = conditions }
    }

    /// The conditions last reported to ``update(_:)``, `nil` before any.
    public var linkConditions: NetworkConditions? { link.withLock { $0 } }

    /// The tier ``route(_:)`` plans at: ``Configuration/linkPolicy``'s
    /// decision for ``linkConditions`` (full until conditions are reported).
    public var linkTier: PrefetchPolicy.Tier { configuration.linkPolicy.decision(for: linkConditions).tier }

    /// Follows `source`'s conditions (`NWPathMonitorConditions` in an app)
    /// until its stream ends or the calling task is cancelled.
    public func follow(_ source: some NetworkConditionSource) async {
        for await conditions in source.conditions() {
            update(conditions)
        }
    }
}

extension ImageBridge {
    /// The width bucket a client's `fields` ask for, passed on with its
    /// image (``ImageRequest/widthHint``) when
    /// ``Configuration/forwardsClientHints``; `nil` otherwise, or when the
    /// hints name no bucket (``ClientHints/widthBucket``). What ``route(_:)``
    /// plans with, and what a memo of ready answers keys them by.
    public func widthHint(_ fields: HTTPFieldList) -> Int? {
        guard configuration.forwardsClientHints else { return nil }
        return ClientHints(fields: fields).widthBucket
    }
}
