import HTTPServer
import WebPBridge

/// The origin's ready answers to repeated requests, as the bridge's hit memo
/// keeps its own: a cached variant or a file as it is, its headers built
/// and its body (``BodyBytes``, shared with the cache it came from) at hand,
/// so the same request again skips parsing the fop, resolving the path,
/// looking up the file's facts, negotiating, building the `ETag` and the
/// headers, and the variant cache.
///
/// Keyed by the target as sent — and, when the origin negotiates WebP, the
/// `Accept` field as sent, and under `--client-hints` or `--save-data` the
/// hints' sizing bucket, width and DPR, which ``ImageOrigin`` appends — which
/// is everything such an answer depends on besides the file. Requests with
/// `If-None-Match`, `If-Modified-Since`, `Range` or `If-Range` are never
/// answered from here (their answers depend on those fields; they take the
/// full path). An answer is given only while the request's path still leads
/// to the same version of its file
/// (``FileResolver/isUnchanged(_:)``: one `stat`), so a changed, replaced
/// or removed file, or a retargeted link, sends the request down the full
/// path, which replaces the answer. With a revalidation window
/// (``ImageOrigin/Configuration/readyAnswerRevalidation``) an answer
/// checked less than the window ago is given without the `stat`: a file
/// changed on disk may be answered as it was for up to the window.
///
/// Bounded in bytes, each answer charged in full: its key, its headers, its
/// body (also when the variant cache holds the same ``BodyBytes``: the
/// bound holds whatever the other caches do), its paths, and the store's
/// bookkeeping. A key longer than 4 KiB (`LRUStore.defaultMaxKeyBytes`) is
/// never kept. An answer's prepared libmicrohttpd response is freed with
/// the answer, or after the last connection sending it when that is later.
/// Thread-safe: one `Lock` guards the store; the `stat` runs
/// outside it.
final class ReadyAnswers: Sendable {
    /// A ready answer and what it was made from. A class, so that giving
    /// an answer copies one reference out of the store, not its fields.
    final class Answer: Sendable {
        let response: HTTPResponse
        /// The file the answer is about, as resolved when it was made.
        let file: FileResolver.File
        /// Whether it is a variant from the variant cache (counted as a hit).
        let isVariant: Bool

        fileprivate init(response: HTTPResponse, file: FileResolver.File, isVariant: Bool) {
            (self.response, self.file, self.isVariant) = (response, file, isVariant)
        }

        /// The bytes held besides the key: headers (twice), body, paths, and 256
        /// for the heap objects.
        var heldBytes: Int {
            var bytes = MemoryLayout<Stored>.stride + 256 + file.path.utf8.count + file.requestedPath.utf8.count
            // Twice: the prepared libmicrohttpd response holds its own copy.
            for field in response.headers { bytes += 2 * (field.name.utf8.count + field.value.utf8.count + 32) }
            switch response.body {
            case .data(let data): bytes += data.count
            case .bytes(let body): bytes += body.count
            case .file(let path, _, _): bytes += path.utf8.count
            case .empty: break
            }
            return bytes
        }
    }

    /// What the store keeps per key: the answer and when its file was last checked.
    private struct Stored: Sendable {
        var answer: Answer
        var checkedAt: ContinuousClock.Instant
    }

    private let answers: Lock<LRUStore<Stored>>
    private let revalidation: Duration
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameters:
    ///   - capacityBytes: The most bytes held, keys included; see
    ///     ``ImageOrigin/MemoryBudget/readyAnswersBytes``.
    ///   - revalidation: How long an answer is given without checking its
    ///     file; zero checks every time.
    ///   - now: The clock (tests pass their own).
    init(
        capacityBytes: Int, revalidation: Duration = .zero,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        answers = Lock(LRUStore(capacity: max(0, capacityBytes)))
        self.revalidation = max(.zero, revalidation)
        self.now = now
    }

    /// The key of `request`, or `nil` when its answer may not come from here.
    /// - Parameter negotiates: Whether the origin negotiates WebP by `Accept`.
    static func key(for request: HTTPRequest, negotiates: Bool) -> String? {
        guard request.method == .get || request.method == .head else { return nil }
        let headers = request.headers
        guard headers["If-None-Match"] == nil, headers["If-Modified-Since"] == nil, headers["Range"] == nil,
            headers["If-Range"] == nil
        else { return nil }
        guard negotiates else { return request.target }
        let accept = headers.combinedValue(for: "Accept") ?? ""
        // A key the store would refuse is not even built.
        guard request.target.utf8.count + accept.utf8.count < LRUStore<Stored>.defaultMaxKeyBytes else { return nil }
        return request.target + "\u{0}" + accept
    }

    /// The answer kept for `key`, if its file is unchanged; an answer whose
    /// file changed is dropped.
    func answer(for key: String) -> Answer? {
        guard let stored = answers.withLock({ $0.value(for: key) }) else { return nil }
        let checking = revalidation > .zero ? now() : nil
        if let checking, checking - stored.checkedAt < revalidation { return stored.answer }
        guard FileResolver.isUnchanged(stored.answer.file) else {
            answers.withLock { _ = $0.remove(key) }
            return nil
        }
        if let checking {
            // Only this answer's check time changes; a replaced answer is left alone.
            answers.withLock { store in
                guard var kept = store.value(for: key), kept.answer === stored.answer else { return }
                kept.checkedAt = checking
                _ = store.insert(kept, for: key, cost: kept.answer.heldBytes)
            }
        }
        return stored.answer
    }

    /// Keeps `response` about `file` for `key`, replacing what was kept, as
    /// checked now; the response is kept prepared (``PreparedResponse``,
    /// built here, outside the lock), so that each answer given is queued
    /// without building it again.
    /// - Parameter isVariant: Whether it is a variant from the variant cache.
    func remember(_ response: HTTPResponse, file: FileResolver.File, isVariant: Bool, for key: String) {
        let answer = Answer(response: .prepared(PreparedResponse(response)), file: file, isVariant: isVariant)
        let cost = answer.heldBytes
        let checkedAt = now()
        answers.withLock { store in
            guard store.admits(key: key, cost: cost) else { return }
            store.insert(Stored(answer: answer, checkedAt: checkedAt), for: key, cost: cost)
        }
    }

    /// Answers held now.
    var count: Int { answers.withLock { $0.count } }

    /// Bytes accounted now, keys included.
    var totalBytes: Int { answers.withLock { $0.totalCost } }
}
