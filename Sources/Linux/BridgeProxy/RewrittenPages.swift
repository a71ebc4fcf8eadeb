import Foundation
import WebPBridge

/// Where `proxy --rewrite-html` rewrites pages: off the server's handler
/// threads, on a bounded queue, with the results kept for the next client.
///
/// - A rewrite runs on a ``WorkQueue`` of its own (``BridgeProxy/Configuration/Limits/pageRewriteConcurrency``
///   at once, ``BridgeProxy/Configuration/Limits/pageRewriteQueueLimit``
///   waiting): a page of a million `srcset` candidates costs seconds of CPU,
///   and on a handler thread it held every other request behind it. Beyond
///   the queue the client gets 503 with `Retry-After`.
/// - Results are kept in an ``LRUStore`` bounded in bytes (keys and the
///   rewritten bodies counted; ``BridgeProxy/MemoryBudget/rewrittenPagesBytes``),
///   keyed by the page's URL and a digest of the upstream's bytes: the same
///   page for the next client is not rewritten again, and a page that
///   changed upstream never gets an old rewrite. What the page becomes does
///   not depend on the client (whether a client gets a rewritten page at all
///   is ``ImageBridge/rewritesPage(_:)``'s call, made before), so one entry
///   serves every client class. A page whose rewrite outgrew its bound is
///   kept as that verdict (its key only), so a hostile page costs its CPU once.
///
/// Thread-safe: the queue and the lock guard their own state.
final class RewrittenPages: Sendable {
    /// What became of a page.
    enum Outcome: Sendable, Equatable {
        /// The rewritten body and how many URLs now name variants.
        case rewritten(Data, urls: Int)
        /// The rewrite would pass ``PageRewriting/outputBound(forInputBytes:)``.
        case tooLarge
        /// The queue is full (or the request was cancelled while waiting).
        case busy
    }

    private struct Page {
        /// `nil` when the rewrite outgrew its bound.
        var body: Data?
        var urls: Int
    }

    let rewriting: PageRewriting
    let queue: WorkQueue
    private let pages: Lock<LRUStore<Page>>

    /// - Parameters:
    ///   - rewriting: The rewrite itself.
    ///   - concurrency: Rewrites at once.
    ///   - queueLimit: Rewrites waiting; beyond, ``Outcome/busy``.
    ///   - capacityBytes: The bound of the kept results.
    init(rewriting: PageRewriting, concurrency: Int, queueLimit: Int, capacityBytes: Int) {
        self.rewriting = rewriting
        queue = WorkQueue(concurrency: concurrency, queueLimit: queueLimit)
        pages = Lock(LRUStore(capacity: capacityBytes))
    }

    /// `body`, the page fetched from `pageURL` and served as `contentType`
    /// (its `charset` counts), rewritten: from the kept results, else on the queue.
    func rewrite(_ body: Data, pageURL: URL, contentType: String?) async -> Outcome {
        let key = Self.key(body, pageURL: pageURL, contentType: contentType)
        if let page = pages.withLock({ $0.value(for: key) }) { return Self.outcome(page) }
        let rewriting = self.rewriting
        let page: Page
        do {
            page = try await queue.run {
                guard let (rewritten, urls) = rewriting.rewrite(body, pageURL: pageURL, contentType: contentType) else {
                    return Page(body: nil, urls: 0)
                }
                return Page(body: rewritten, urls: urls)
            }
        } catch {
            return .busy
        }
        pages.withLock { _ = $0.insert(page, for: key, cost: page.body?.count ?? 0) }
        return Self.outcome(page)
    }

    /// The bytes the kept results are charged, keys and bookkeeping included.
    var usageBytes: Int { pages.withLock { $0.totalCost } }

    private static func outcome(_ page: Page) -> Outcome {
        guard let body = page.body else { return .tooLarge }
        return .rewritten(body, urls: page.urls)
    }

    /// The page's URL, its length and a digest of its bytes and its
    /// `Content-Type`. The digest is the standard library's seeded hash,
    /// fresh per process, so a page cannot be made to collide with another
    /// on purpose.
    static func key(_ body: Data, pageURL: URL, contentType: String?) -> String {
        var hasher = Hasher()
        hasher.combine(contentType)
        body.withUnsafeBytes { hasher.combine(bytes: $0) }
        let digest = UInt64(bitPattern: Int64(hasher.finalize()))
        return "\(pageURL.absoluteString) \(body.count) \(String(digest, radix: 16))"
    }
}
