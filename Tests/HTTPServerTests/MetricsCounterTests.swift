import Foundation
import TestTraits
import Testing

@testable import HTTPServer

/// ``MetricsRegistry/Counter``: a series looked up once and counted on a hot path.
@Suite(.timeLimit(.suiteBound)) struct MetricsCounterTests {
    private static let family = MetricsRegistry.Family("test_requests_total", help: "Requests.")

    @Test func aCounterIsTheSeriesCountedByName() {
        let metrics = MetricsRegistry()
        let counter = metrics.counter(Self.family, labels: "status=\"200\"")
        #expect(metrics.counter(Self.family, labels: "status=\"200\"") === counter)
        counter.increment()
        metrics.increment(Self.family, labels: "status=\"200\"", by: 2)
        #expect(metrics.value(Self.family, labels: "status=\"200\"") == 3)
        #expect(metrics.render().contains("test_requests_total{status=\"200\"} 3\n"))
    }

    @Test func aSeriesLookedUpButNeverCountedIsNotRendered() {
        let metrics = MetricsRegistry()
        let counter = metrics.counter(Self.family, labels: "status=\"200\"")
        #expect(!metrics.render().contains("test_requests_total"), "no family before its first count")
        counter.increment(by: 0)
        #expect(metrics.render().contains("test_requests_total{status=\"200\"} 0\n"), "shown at zero once counted")
    }

    @Test func concurrentIncrementsAreAllCounted() async {
        let metrics = MetricsRegistry()
        let counter = metrics.counter(Self.family)
        let (tasks, each) = (8, 5_000)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for _ in 0..<each {
                        // Half by handle, half by name: both reach the same series.
                        if task.isMultiple(of: 2) { counter.increment() } else { metrics.increment(Self.family) }
                    }
                }
            }
        }
        #expect(metrics.value(Self.family) == Double(tasks * each))
    }
}
