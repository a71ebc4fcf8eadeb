import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

/// Requests for the same transcode at the same time share one run: a page
/// of old clients asking for a new image costs one transcode, not one each.
@Suite(.timeLimit(.suiteBound))
struct TranscodeSharingTests {
    static let image = ImageDataResponse(
        data: Data("variant bytes".utf8), format: .webp, fetchedURL: URL(string: "http://img.test/a.jpg?webp")!,
        cacheKey: "http://img.test/a.jpg?webp", isVariant: true, isFallback: false, source: .network,
        statusCode: 200, headers: ["ETag": "\"v1\""], networkBytes: 13)
    static let jpeg = Transcoder.Output(
        data: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0, 0, 0]), format: .jpeg, isTranscoded: true)
    static let consumer: Transcoder.Capabilities = [.jpeg, .png]

    /// `count` requests for `image`'s transcode, the run held until all of
    /// them share it; `cancelFirst` cancels the request that started it
    /// once all have joined. Returns the answers of those not cancelled.
    static func share(
        _ count: Int, cache: TranscodeCache, runs: Lock<Int>, cancelFirst: Bool = false
    ) async throws -> [TranscodeCache.Answer] {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let transcode: @Sendable () async throws -> (Transcoder.Output, Double) = {
            runs.withLock { $0 += 1 }
            for await _ in gate { break }
            return (Self.jpeg, 0.012)
        }
        let first = Task { try await cache.answer(of: Self.image, for: Self.consumer, transcode: transcode) }
        await cache.waitUntilSharing(1, of: Self.image, for: Self.consumer)
        var others: [Task<TranscodeCache.Answer, any Error>] = []
        for _ in 1..<count {
            others.append(Task { try await cache.answer(of: Self.image, for: Self.consumer, transcode: transcode) })
        }
        await cache.waitUntilSharing(count, of: Self.image, for: Self.consumer)
        if cancelFirst {
            first.cancel()
            await cache.waitUntilSharing(count - 1, of: Self.image, for: Self.consumer)
        }
        open.yield()
        open.finish()
        var answers: [TranscodeCache.Answer] = []
        if cancelFirst {
            await #expect(throws: CancellationError.self) { try await first.value }
        } else {
            answers.append(try await first.value)
        }
        for task in others { answers.append(try await task.value) }
        return answers
    }

    @Test func concurrentRequestsShareOneRun() async throws {
        let cache = TranscodeCache(capacityBytes: 1 << 20, disk: nil, transcoder: .init())
        let runs = Lock(0)
        let answers = try await Self.share(8, cache: cache, runs: runs)
        #expect(runs.withLock { $0 } == 1)
        #expect(answers.count == 8 && answers.allSatisfy { $0.data == Self.jpeg.data && $0.format == .jpeg })
        #expect(answers.count { !$0.wasKept && $0.transcodeSeconds == 0.012 } == 1, "the request that ran it")
        #expect(answers.count { $0.wasKept && $0.transcodeSeconds == nil } == 7, "the requests that joined")
        let usage = cache.usage
        #expect(usage.misses == 1 && usage.joined == 7 && usage.memoryHits == 0 && usage.entries == 1)

        // The run kept its output: the next request is a hit, without a run.
        let next = try await cache.answer(of: Self.image, for: Self.consumer) {
            runs.withLock { $0 += 1 }
            return (Self.jpeg, 0.012)
        }
        #expect(next.wasKept && runs.withLock { $0 } == 1 && cache.usage.memoryHits == 1)
    }

    @Test func theRunOutlivesTheRequestThatStartedIt() async throws {
        let cache = TranscodeCache(capacityBytes: 1 << 20, disk: nil, transcoder: .init())
        let runs = Lock(0)
        let answers = try await Self.share(4, cache: cache, runs: runs, cancelFirst: true)
        #expect(runs.withLock { $0 } == 1)
        #expect(answers.count == 3 && answers.allSatisfy { $0.data == Self.jpeg.data })
    }

    @Test func aFailedRunFailsEveryRequestSharingItAndKeepsNothing() async throws {
        let cache = TranscodeCache(capacityBytes: 1 << 20, disk: nil, transcoder: .init())
        let (gate, open) = AsyncStream<Void>.makeStream()
        let transcode: @Sendable () async throws -> (Transcoder.Output, Double) = {
            for await _ in gate { break }
            throw WorkQueue.Full()
        }
        let tasks = (0..<4).map { _ in
            Task { try await cache.answer(of: Self.image, for: Self.consumer, transcode: transcode) }
        }
        await cache.waitUntilSharing(4, of: Self.image, for: Self.consumer)
        open.yield()
        open.finish()
        for task in tasks {
            await #expect(throws: WorkQueue.Full.self) { try await task.value }
        }
        let usage = cache.usage
        #expect(usage.misses == 1 && usage.joined == 0 && usage.entries == 0, "\(usage)")
    }
}
