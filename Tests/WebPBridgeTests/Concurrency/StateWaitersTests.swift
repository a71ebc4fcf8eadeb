import TestTraits
import Testing
import WebPBridge

/// A count and the tasks waiting on it.
private struct Counted: WaitableState {
    var count = 0
    var waiters = StateWaiters<Counted>()
}

@Suite("StateWaiters", .timeLimit(.suiteBound))
struct StateWaitersTests {
    /// Starts a task waiting for `condition`, returning once it is registered:
    /// its condition has been read under the lock, which is where it is added.
    private static func waiter(
        on lock: Lock<Counted>, until condition: @escaping @Sendable (Int) -> Bool
    ) async -> (task: Task<Int, Never>, evaluations: AsyncStream<Int>.Iterator) {
        let evaluations = AsyncStream<Int>.makeStream()
        let task = Task {
            await lock.wait { state in
                evaluations.continuation.yield(state.count)
                return condition(state.count)
            }
            return lock.withLock { $0.count }
        }
        var iterator = evaluations.stream.makeAsyncIterator()
        _ = await iterator.next()
        return (task, iterator)
    }

    @Test("A condition that holds already returns at once and leaves no waiter")
    func holdingConditionReturnsAtOnce() async {
        let lock = Lock(Counted(count: 5))
        await lock.wait { $0.count == 5 }
        #expect(lock.withLock { $0.waiters.isEmpty })
    }

    @Test("A waiter is woken by the change that satisfies it, and not before")
    func wokenByTheSatisfyingChange() async throws {
        let lock = Lock(Counted())
        let waiter = await Self.waiter(on: lock, until: { $0 >= 3 })
        var evaluations = waiter.evaluations
        lock.withLockWakingWaiters { $0.count = 1 }
        // The conditions are read before `withLockWakingWaiters` returns.
        try #require(lock.withLock { $0.waiters.count } == 1, "still waiting at 1")
        #expect(await evaluations.next() == 1)
        // A change made without waking is not seen.
        lock.withLock { $0.count = 7 }
        #expect(lock.withLock { $0.waiters.count } == 1)
        lock.withLockWakingWaiters { $0.count = 3 }
        #expect(await evaluations.next() == 3)
        #expect(await waiter.task.value == 3)
        #expect(lock.withLock { $0.waiters.isEmpty })
    }

    @Test("Cancelling a waiter ends its wait and removes it")
    func cancellingEndsTheWait() async {
        let lock = Lock(Counted())
        let (task, _) = await Self.waiter(on: lock, until: { $0 < 0 })
        #expect(lock.withLock { $0.waiters.count } == 1)
        task.cancel()
        #expect(await task.value == 0)
        #expect(lock.withLock { $0.waiters.isEmpty })
    }

    /// Bound: one entry per waiting task, gone once it is woken or cancelled.
    @Test("A flood of waiters is woken or cancelled without leaving an entry")
    func floodOfWaitersLeavesNothing() async {
        let lock = Lock(Counted())
        let registered = AsyncStream<Void>.makeStream()
        await withTaskGroup(of: Void.self) { group in
            for threshold in 1...1_000 {
                group.addTask {
                    await lock.wait { state in
                        registered.continuation.yield()
                        return state.count >= threshold
                    }
                }
            }
            var registrations = registered.stream.makeAsyncIterator()
            for _ in 1...1_000 { await registrations.next() }
            #expect(lock.withLock { $0.waiters.count } == 1_000)
            for _ in 1...1_000 { lock.withLockWakingWaiters { $0.count += 1 } }
            await group.waitForAll()
        }
        #expect(lock.withLock { $0.waiters.isEmpty })

        let never = AsyncStream<Void>.makeStream()
        let tasks = (0..<1_000).map { _ in
            Task {
                await lock.wait { _ in
                    never.continuation.yield()
                    return false
                }
            }
        }
        var registrations = never.stream.makeAsyncIterator()
        for _ in tasks { await registrations.next() }
        #expect(lock.withLock { $0.waiters.count } == 1_000)
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        #expect(lock.withLock { $0.waiters.isEmpty })
    }
}
