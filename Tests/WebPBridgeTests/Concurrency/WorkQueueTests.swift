import Foundation
import TestTraits
import Testing
@testable import WebPBridge

@Suite("WorkQueue", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WorkQueueTests {
    /// Threads of Swift's global executor on Linux are Dispatch workers,
    /// named after their root queue (`com.apple.root.default-qos`, which the
    /// kernel keeps as `oot.default-qos`).
    static var isOnTheGlobalExecutor: Bool {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("-qos")
    }

    /// Whether a thread's name can be read (Linux's `/proc`): without it
    /// ``isOnTheGlobalExecutor`` is always false, and a test of it would pass
    /// without checking anything.
    static let threadNamesReadable = FileManager.default.fileExists(atPath: "/proc/thread-self/comm")

    @Test(
        "Jobs run on the queue's own threads, never on Swift's global executor",
        .enabled(if: threadNamesReadable, "thread names are read from /proc (Linux only)"))
    func jobsRunOnTheQueuesThreads() async throws {
        let queue = WorkQueue(concurrency: 2, queueLimit: 4)
        // The check itself tells: a detached task runs on the global executor.
        let detached = await Task.detached { Self.isOnTheGlobalExecutor }.value
        #expect(detached)
        let onTheGlobalExecutor = try await queue.run { Self.isOnTheGlobalExecutor }
        #expect(!onTheGlobalExecutor)
    }

    @Test(
        "The suite's tests themselves run off the global executor (.offTheGlobalExecutor)",
        .enabled(if: threadNamesReadable, "thread names are read from /proc (Linux only)"))
    func theTraitMovesTheTestBody() {
        #expect(!Self.isOnTheGlobalExecutor)
    }

    @Test("A flood runs at most `concurrency` jobs at once and refuses past the queue limit")
    func aFloodIsBounded() async throws {
        let queue = WorkQueue(concurrency: 2, queueLimit: 3)
        let load = Lock((now: 0, most: 0))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do {
                        _ = try await queue.run {
                            load.withLock {
                                $0.now += 1
                                $0.most = max($0.most, $0.now)
                            }
                            // A little CPU work, so jobs overlap.
                            var sum = 0
                            for index in 0..<20_000 { sum &+= index &* index }
                            load.withLock { $0.now -= 1 }
                            return sum
                        }
                        return true
                    } catch {
                        #expect(error is WorkQueue.Full)
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.count == 200)
        #expect(outcomes.contains(true))
        #expect(load.withLock { $0.most } <= 2)
        #expect(queue.load.running == 0 && queue.load.waiting == 0)
    }

    @Test("Waiting jobs start highest priority first, in order of arrival within a priority")
    func waitingJobsStartByPriority() async throws {
        let queue = WorkQueue(concurrency: 1, queueLimit: 8)
        let order = Lock([String]())
        // The first job holds the one slot until every other job waits (a
        // stream keeps the signal should it come before the holder listens).
        let (gate, open) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await queue.withSlot {
                for await _ in gate { break }
            }
        }
        await queue.waitUntilLoad { $0.running == 1 }
        let arrivals: [(name: String, priority: Int)] = [
            ("low", 0), ("high 1", 3), ("normal 1", 2), ("high 2", 3), ("very high", 4), ("normal 2", 2),
        ]
        var jobs: [Task<Void, any Error>] = []
        for (index, arrival) in arrivals.enumerated() {
            jobs.append(
                Task {
                    try await queue.run(priority: arrival.priority) { order.withLock { $0.append(arrival.name) } }
                })
            await queue.waitUntilLoad { $0.waiting == index + 1 }
        }
        open.yield()
        try await holder.value
        for job in jobs { try await job.value }
        #expect(order.withLock { $0 } == ["very high", "high 1", "high 2", "normal 1", "normal 2", "low"])
        #expect(queue.load.running == 0 && queue.load.waiting == 0)
    }
}
