// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import WebPBridge

/// Prefetching for a feed: a collection view's prefetch data source
/// (`collectionView(_:prefetchItemsAt:)` and `collectionView(_:cancelPrefetchingForItemsAt:)`)
/// calls these with the URLs of the rows about to appear or no longer coming.
///
/// A prefetch uses the same requests as display (same URL, same target size), so the cell's own
/// request is a cache hit, or joins the fetch still running.
struct FeedPrefetcher: Sendable {
    let pipeline: ImagePipeline
    /// What a cell shows: 375×250 points on a 3× screen.
    let cellSize = ImageRequest.TargetSize(width: 375, height: 250, scale: 3)

    func requests(_ urls: [URL], priority: ImageRequest.Priority) -> [ImageRequest] {
        urls.map { ImageRequest(url: $0, targetSize: cellSize, priority: priority) }
    }

    /// Rows about to appear: fetched a few at a time at low priority, skipping what is cached.
    func prefetch(_ urls: [URL]) {
        pipeline.prefetch(requests(urls, priority: .low))
    }

    /// Rows scrolled past: their prefetches stop (a display request sharing a fetch keeps it).
    func cancel(_ urls: [URL]) {
        pipeline.cancelPrefetch(requests(urls, priority: .low))
    }

    /// A cell about to show `url`: the same request, at high priority.
    func display(_ url: URL) async throws -> WebPBridge.Image {
        try await pipeline.image(for: requests([url], priority: .high)[0]).image.firstFrame
    }
}
