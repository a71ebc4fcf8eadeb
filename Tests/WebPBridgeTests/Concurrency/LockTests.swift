import TestTraits
import Testing
import WebPBridge

@Suite("Lock", .timeLimit(.suiteBound))
struct LockTests {
    @Test("Concurrent changes are all kept")
    func concurrentChangesAreAllKept() async {
        let counter = Lock(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    private struct Refused: Error {}

    @Test("A throwing body changes the state it reached and releases the lock")
    func aThrowingBodyReleasesTheLock() {
        let values = Lock([Int]())
        #expect(throws: Refused.self) {
            try values.withLock { values in
                values.append(1)
                throw Refused()
            }
        }
        // Taking the lock again would deadlock if the throw had left it held.
        let kept = values.withLock { values in
            values.append(2)
            return values
        }
        #expect(kept == [1, 2])
    }

    @Test("The body's result is returned")
    func theResultIsReturned() {
        let lock = Lock("state")
        #expect(lock.withLock { $0.count } == 5)
    }
}
