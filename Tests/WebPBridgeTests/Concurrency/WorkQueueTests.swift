import Foundation
import TestTraits
import Testing
import WebPBridge

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
}
