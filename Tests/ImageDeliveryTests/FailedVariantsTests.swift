import Foundation
import TestTraits
import Testing

@testable import ImageDelivery

/// The memo of failed AVIF variants stays within its bound under a flood
/// and forgets a failure after its lifetime.
@Suite(.timeLimit(.suiteBound))
struct FailedVariantsTests {
    @Test func aFloodOfFailingURLsKeepsAtMostTheCapacity() {
        let memo = FailedVariants(capacity: 64, maxKeyBytes: 128, lifetime: 60)
        let now = Date(timeIntervalSince1970: 1_000)
        for index in 0..<10_000 {
            memo.insert("http://img.test/\(index).jpg?format/avif", now: now)
            #expect(memo.count <= 64)
        }
        #expect(memo.count == 64)
        // The newest are kept, the oldest pushed out.
        #expect(memo.contains("http://img.test/9999.jpg?format/avif", now: now))
        #expect(!memo.contains("http://img.test/0.jpg?format/avif", now: now))
        // A key over the byte bound is never kept.
        memo.insert("http://img.test/" + String(repeating: "a", count: 200), now: now)
        #expect(!memo.contains("http://img.test/" + String(repeating: "a", count: 200), now: now))
    }

    @Test func aFailureIsForgottenAfterItsLifetime() {
        let memo = FailedVariants(lifetime: 60)
        let now = Date(timeIntervalSince1970: 1_000)
        memo.insert("k", now: now)
        #expect(memo.contains("k", now: now.addingTimeInterval(59)))
        #expect(!memo.contains("k", now: now.addingTimeInterval(61)))
        let off = FailedVariants(lifetime: 0)
        off.insert("k", now: now)
        #expect(!off.contains("k", now: now))
    }
}
