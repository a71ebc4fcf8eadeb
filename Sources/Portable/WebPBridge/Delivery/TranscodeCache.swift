public import Foundation

/// Finished transcodes, so that a client that cannot show the variant's
/// format gets, for the same image again, the JPEG or PNG made the first
/// time instead of a second transcode (about 12 ms of CPU for an 88 KB WebP).
///
/// Keyed by everything the output depends on: the transcoder's settings,
/// the client class (the formats the client shows: every client showing the
/// same formats gets the same bytes), the source's validator — its `ETag`,
/// else its `Last-Modified`, else an FNV-1a digest of its bytes, as the
/// delivered `ETag` (`TransformedEntityTag`) is made — and the URL fetched
/// and cache key of the variant. A source that changed carries a new
/// validator, so it is never answered with the old transcode.
///
/// Two tiers, both the pipeline's own cache types under its ``CachePolicy``:
/// a ``MemoryDataCache`` of ``capacityBytes`` (the proxy gives it a share
/// of its memory budget; each entry charged body, key and metadata), and,
/// when the pipeline keeps its bytes on disk (a ``DiskCache``), that cache
/// under a key space of its own (keys start with `transcode:`; the
/// pipeline's are URLs), bounded by the disk cache's own capacity. A disk
/// hit is copied into memory. Only real transcodes are kept — for an
/// animated GIF's variant, the answer ``ImageBridge`` chose between the APNG
/// and the original GIF, whichever was smaller — and a stored body is used
/// only when it sniffs as a format the client shows.
///
/// Concurrent requests for the same transcode (a page of old clients
/// asking for a new image at once) share one run: the first starts it,
/// the others wait for its output (``Usage/joined``); it is cancelled only
/// when all of them have gone. In flight: one entry per distinct key whose
/// transcode runs, so at most the transcode queue's running and waiting
/// jobs.
///
/// Thread-safe: the caches guard their own state, the counters sit behind
/// one `Lock`.
public final class TranscodeCache: Sendable {
    /// 8 MiB, the default ``capacityBytes``: about 60 JPEGs of a 750-px photo.
    public static let defaultCapacityBytes = 8 << 20

    /// What the cache holds and how it was used, for `/metrics`.
    public struct Usage: Sendable, Equatable {
        /// Bytes held in memory, keys and metadata included.
        public var bytes: Int
        /// Transcodes held in memory.
        public var entries: Int
        /// Answers given from memory.
        public var memoryHits: Int
        /// Answers given from the disk cache.
        public var diskHits: Int
        /// Transcodes run because none was kept.
        public var misses: Int
        /// Answers that waited for a transcode another request had started.
        public var joined: Int
    }

    /// A client's image as a transcode gave it, fresh or kept.
    public struct Answer: Sendable {
        /// The bytes to deliver.
        public var data: Data
        /// Their format.
        public var format: ImageFormat
        /// Seconds the transcode took, when one ran now and changed the bytes.
        public var transcodeSeconds: Double?
        /// Whether the bytes are a transcode made before this request: kept,
        /// or made by a concurrent request's run.
        public var wasKept: Bool
        /// The request whose run made it (to tell a joined answer).
        var runner: UInt64 = 0
    }

    /// The most bytes held in memory.
    public let capacityBytes: Int
    private let memory: MemoryDataCache
    private let disk: (any DataCaching)?
    private let settings: String
    private let counts = Lock((memoryHits: 0, diskHits: 0, misses: 0, joined: 0))
    /// Transcodes in flight, by key: shared by concurrent requests.
    private let inFlight = TaskCoalescer<Answer>()
    /// Tells each request's run from the others'.
    private let nextRunner = Lock(UInt64(0))

    /// A key prefix no URL starts with: the disk cache's key space for transcodes.
    static let keyPrefix = "transcode:"

    /// - Parameters:
    ///   - capacityBytes: The most bytes held in memory; 0 keeps nothing, on disk either.
    ///   - disk: The pipeline's disk cache, to keep transcodes in as well; `nil` for none.
    ///   - transcoder: The settings every output is made with (part of the key).
    public init(capacityBytes: Int, disk: (any DataCaching)?, transcoder: Transcoder.Configuration) {
        self.capacityBytes = max(0, capacityBytes)
        // A year: the key names the source's version, so an entry never goes stale.
        memory = MemoryDataCache(capacity: self.capacityBytes, policy: CachePolicy(defaultLifetime: 365 * 86_400))
        self.disk = self.capacityBytes > 0 ? disk : nil
        settings = "q\(transcoder.jpegQuality)z\(transcoder.pngCompressionLevel)"
    }

    /// The transcode of `image` for a client showing `consumer`: the kept
    /// one, the one another request is making now, or what `transcode`
    /// makes (kept when it is a real transcode).
    /// - Parameter transcode: Makes the output; returns it and the seconds it took.
    /// - Throws: What `transcode` throws (to every request sharing the run),
    ///   or `CancellationError` when this request is cancelled.
    public func answer(
        of image: ImageDataResponse, for consumer: Transcoder.Capabilities,
        transcode: @escaping @Sendable () async throws -> (Transcoder.Output, Double)
    ) async throws -> Answer {
        guard capacityBytes > 0 else {
            counts.withLock { $0.misses += 1 }
            return try await Self.run(transcode).answer
        }
        let key = Self.key(of: image, for: consumer, settings: settings)
        if let kept = kept(for: key, consumer: consumer) { return kept }
        let runner = nextRunner.withLock {
            $0 += 1
            return $0
        }
        let url = image.fetchedURL
        let shared = try await inFlight.value(for: key) { [self] in
            counts.withLock { $0.misses += 1 }
            let (answer, output) = try await Self.run(transcode)
            if output.isTranscoded { keep(output, for: key, url: url) }
            return Answer(
                data: answer.data, format: answer.format, transcodeSeconds: answer.transcodeSeconds,
                wasKept: false, runner: runner)
        }
        guard shared.runner != runner else { return shared }
        // Another request's run: its output, not a transcode of this one's.
        counts.withLock { $0.joined += 1 }
        return Answer(data: shared.data, format: shared.format, transcodeSeconds: nil, wasKept: true)
    }

    /// Returns once `count` requests wait on the run for `image`'s transcode
    /// for `consumer` (the one that started it and those that joined),
    /// woken by each joining or leaving; returns early when the task is
    /// cancelled. A test seam.
    package func waitUntilSharing(
        _ count: Int, of image: ImageDataResponse, for consumer: Transcoder.Capabilities
    ) async {
        let key = Self.key(of: image, for: consumer, settings: settings)
        await inFlight.waitUntilWaiterCount(for: key) { $0 == count }
    }

    /// Runs `transcode`: its answer (seconds only for a real transcode) and output.
    private static func run(
        _ transcode: () async throws -> (Transcoder.Output, Double)
    ) async throws -> (answer: Answer, output: Transcoder.Output) {
        let (output, seconds) = try await transcode()
        let answer = Answer(
            data: output.data, format: output.format, transcodeSeconds: output.isTranscoded ? seconds : nil,
            wasKept: false)
        return (answer, output)
    }

    /// What is held and how often it answered.
    public var usage: Usage {
        let counts = counts.withLock { $0 }
        return Usage(
            bytes: memory.totalBytes, entries: memory.count, memoryHits: counts.memoryHits,
            diskHits: counts.diskHits, misses: counts.misses, joined: counts.joined)
    }

    /// The key of `image`'s transcode for `consumer` under `settings`.
    static func key(of image: ImageDataResponse, for consumer: Transcoder.Capabilities, settings: String) -> String {
        var validator: String
        if let etag = image.headers["ETag"] {
            validator = "etag:" + etag
        } else if let lastModified = image.headers["Last-Modified"] {
            validator = "lm:" + lastModified
        } else {
            var digest = EntityTag.Digest()
            image.data.withUnsafeBytes { digest.update($0) }
            validator = "fnv:" + String(digest.value, radix: 16)
        }
        let formats = consumer.map(\.rawValue).sorted().joined(separator: ",")
        return [keyPrefix + settings, formats, validator, image.fetchedURL.absoluteString, image.cacheKey]
            .joined(separator: "\u{0}")
    }

    private func kept(for key: String, consumer: Transcoder.Capabilities) -> Answer? {
        if let entry = memory.entry(for: key), let output = Self.output(entry, consumer: consumer) {
            counts.withLock { $0.memoryHits += 1 }
            return output
        }
        guard let entry = disk?.entry(for: key), let output = Self.output(entry, consumer: consumer) else {
            return nil
        }
        counts.withLock { $0.diskHits += 1 }
        memory.store(entry.response, for: key, now: Date())
        return output
    }

    /// A stored body as an output, when it sniffs as a format `consumer` shows.
    private static func output(_ entry: CachedEntry, consumer: Transcoder.Capabilities) -> Answer? {
        guard let format = ImageFormat.sniffIfImage(entry.data), consumer.contains(format) else { return nil }
        return Answer(data: entry.data, format: format, transcodeSeconds: nil, wasKept: true)
    }

    private func keep(_ output: Transcoder.Output, for key: String, url: URL) {
        let response = DataResponse(
            url: url, statusCode: 200,
            headers: ["Content-Type": output.format.mimeType, "Cache-Control": "max-age=31536000"],
            body: output.data)
        let now = Date()
        memory.store(response, for: key, now: now)
        disk?.store(response, for: key, now: now)
    }
}
