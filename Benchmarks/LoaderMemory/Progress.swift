import Foundation
import WebPBridge

/// Counts finished requests across the workers and samples resident memory
/// at warm-up and every interval.
final class Progress: Sendable {
    struct Sample {
        let requests: Int
        let rss: Int
        let elapsed: Duration
        /// How full the workload's caches were, when it has any.
        let caches: CacheUsage?
    }

    private struct State {
        var next = 0
        var done = 0
        var errors = 0
        var firstError: String?
        var samples: [Sample] = []
    }

    private let state = Lock(State())
    private let options: Options
    private let cacheUsage: @Sendable () -> CacheUsage?
    private let start = ContinuousClock.now

    /// - Parameter cacheUsage: Read at every sample and printed with it.
    init(options: Options, cacheUsage: @escaping @Sendable () -> CacheUsage? = { nil }) {
        self.options = options
        self.cacheUsage = cacheUsage
    }

    /// The index of the next request to make, or `nil` when all are claimed
    /// or the time limit passed.
    func claim() -> Int? {
        guard ContinuousClock.now - start < options.timeLimit else { return nil }
        return state.withLock { state in
            guard state.next < options.requests else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Records one finished request; prints a sample line on the boundaries.
    func finished(error: String?) {
        let sampleAt: Int? = state.withLock { state in
            state.done += 1
            if let error {
                state.errors += 1
                if state.firstError == nil { state.firstError = error }
            }
            let done = state.done
            let onBoundary = done == options.warmUp || (done > options.warmUp && done % options.interval == 0)
            return onBoundary || done == options.requests ? done : nil
        }
        guard let done = sampleAt, let rss = ResidentMemory.currentBytes else { return }
        let elapsed = ContinuousClock.now - start
        let caches = cacheUsage()
        let sample = Sample(requests: done, rss: rss, elapsed: elapsed, caches: caches)
        state.withLock { $0.samples.append(sample) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let note = (done == options.warmUp ? "  (after warm-up)" : "") + (caches.map { "  \($0)" } ?? "")
        print(
            String(
                format: "%9d requests  RSS %@  %6.0f requests/s%@", done, ResidentMemory.format(rss),
                Double(done) / seconds, note))
    }

    var summary: (samples: [Sample], done: Int, errors: Int, firstError: String?) {
        state.withLock { ($0.samples.sorted { $0.requests < $1.requests }, $0.done, $0.errors, $0.firstError) }
    }
}
