import Foundation
import TestTraits
import Testing

@testable import WebPBridge

@Suite("WorkerThreads", .timeLimit(.suiteBound))
struct WorkerThreadsTests {
    @Test("A flood of jobs runs every one, never on more threads than the limit")
    func aFloodRunsEveryJobWithinTheLimit() async throws {
        let threads = WorkerThreads(limit: 3, name: "test.flood")
        let load = Lock((now: 0, most: 0, threads: 0))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<10_000 {
                group.addTask {
                    try await threads.run {
                        load.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                            $0.threads = max($0.threads, threads.threadCount)
                        }
                        defer { load.withLock { $0.now -= 1 } }
                        return index
                    }
                }
            }
            var sum = 0
            for try await index in group { sum += index }
            #expect(sum == (0..<10_000).reduce(0, +))
        }
        let seen = load.withLock { $0 }
        #expect(seen.most >= 1 && seen.most <= 3, "\(seen.most) jobs ran at once")
        #expect(seen.threads <= 3, "\(seen.threads) threads")
    }

    @Test("One thread runs jobs in the order they were submitted")
    func oneThreadKeepsTheOrder() async {
        let threads = WorkerThreads(limit: 1, name: "test.order")
        let order = Lock([Int]())
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<500 {
                threads.submit {
                    order.withLock { $0.append(index) }
                    if index == 499 { done.resume() }
                }
            }
        }
        #expect(order.withLock { $0 } == Array(0..<500))
    }

    @Test("Idle threads end, and start again for new work")
    func idleThreadsEnd() async throws {
        let (ended, thread) = AsyncStream.makeStream(of: Void.self)
        let threads = WorkerThreads(
            limit: 2, name: "test.idle", idleTimeout: .milliseconds(20), threadEnded: { thread.yield() })
        #expect(threads.threadCount == 0)
        #expect(try await threads.run { 1 } == 1)
        var endings = ended.makeAsyncIterator()
        await endings.next()
        #expect(threads.threadCount == 0)
        #expect(try await threads.run { 2 } == 2)
        await endings.next()
        #expect(threads.threadCount == 0)
    }

    @Test("Jobs and tasks that prefer the threads run while the global executor is held")
    func runsWhileTheGlobalExecutorIsHeld() async throws {
        let threads = WorkerThreads(limit: 2, name: "test.held")
        let ran = try await whileTheGlobalExecutorIsHeld {
            let finished = DispatchSemaphore(value: 0)
            let names = Lock([Bool]())
            threads.submit {
                names.withLock { $0.append(threads.isCurrentThread) }
                finished.signal()
            }
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                Task(executorPreference: threads) {
                    await Task.yield()
                    names.withLock { $0.append(threads.isCurrentThread) }
                    // An unstructured task started here stays on the threads.
                    let inner = WorkerThreads.$current.withValue(threads) {
                        Task.onCurrentThreads { names.withLock { $0.append(threads.isCurrentThread) } }
                    }
                    await inner.value
                    finished.signal()
                }
            } else {
                // No task executors below iOS 18 / macOS 15: only jobs can prefer the
                // threads there, so one more job stands for the task and its child.
                threads.submit {
                    names.withLock { $0 += [threads.isCurrentThread, threads.isCurrentThread] }
                    finished.signal()
                }
            }
            let inTime = [finished.wait(timeout: .now() + 30), finished.wait(timeout: .now() + 30)]
            return (inTime, names.withLock { $0 })
        }
        #expect(ran.0 == [.success, .success], "the work waited for the global executor")
        #expect(ran.1 == [true, true, true], "not all on the threads: \(ran.1)")
    }
}
