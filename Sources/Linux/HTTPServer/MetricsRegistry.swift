import Synchronization
import WebPBridge

/// Counters and histograms rendered in Prometheus' text exposition format,
/// for the `/metrics` endpoints of the origin and the bridge.
///
/// Thread-safe: one `Lock` guards the families; recording by name is a
/// dictionary lookup under it. A path that counts on every request (a cache
/// hit) looks its series up once, as a ``Counter``, and then updates only
/// that counter, without a lock: no family or label hashed, no label string
/// built, and two threads counting different series never meet.
public final class MetricsRegistry: Sendable {
    /// A metric's name and help line.
    public struct Family: Sendable, Hashable {
        public var name: String
        public var help: String
        public init(_ name: String, help: String) {
            self.name = name
            self.help = help
        }

        /// Hashes the name only: names are unique, and the help text is
        /// long, while a family is looked up for every request.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    private struct Histogram {
        var buckets: [Double]
        var counts: [Int]
        var sum = 0.0
        var count = 0
    }

    /// One counter series (a family and its labels), looked up once.
    ///
    /// Thread-safe without a lock: the value is one atomic word (the
    /// `Double`'s bits) updated by compare-and-exchange, a few instructions
    /// where a lock cost about 250 on every request (callgrind). Not rendered
    /// until first incremented (by any amount, 0 included), as a series
    /// counted by name appears only once counted.
    public final class Counter: Sendable {
        /// The bits of the value, or ``unset`` before the first increment (a
        /// NaN no sum of finite amounts produces).
        private let bits = Atomic<UInt64>(Counter.unset)
        private static let unset = UInt64.max

        fileprivate init() {}

        /// Adds `amount` to the series.
        /// - Parameter amount: What to add; 1 by default.
        public func increment(by amount: Double = 1) {
            var expected = bits.load(ordering: .relaxed)
            while true {
                let sum = (expected == Self.unset ? 0 : Double(bitPattern: expected)) + amount
                let (exchanged, found) = bits.compareExchange(
                    expected: expected, desired: sum.bitPattern, ordering: .relaxed)
                if exchanged { return }
                expected = found
            }
        }

        /// The value, or `nil` while never incremented.
        fileprivate var current: Double? {
            let value = bits.load(ordering: .relaxed)
            return value == Self.unset ? nil : Double(bitPattern: value)
        }
    }

    private struct State {
        var counters: [Family: [String: Counter]] = [:]
        var gauges: [Family: Double] = [:]
        var histograms: [Family: Histogram] = [:]
        var order: [Family] = []
    }

    private let state = Lock(State())

    public init() {}

    /// Adds `amount` to the counter `family{labels}`; labels are written as
    /// given, e.g. `status="200"`.
    public func increment(_ family: Family, labels: String = "", by amount: Double = 1) {
        counter(family, labels: labels).increment(by: amount)
    }

    /// The series `family{labels}`, to count on a hot path without looking
    /// it up again; the same object for every call with the same family and
    /// labels. Rendered once incremented.
    /// - Parameters:
    ///   - family: The counter's family.
    ///   - labels: Written as given, e.g. `status="200"`.
    public func counter(_ family: Family, labels: String = "") -> Counter {
        state.withLock { state in
            if let counter = state.counters[family]?[labels] { return counter }
            if state.counters[family] == nil {
                state.counters[family] = [:]
                state.order.append(family)
            }
            let counter = Counter()
            state.counters[family]![labels] = counter
            return counter
        }
    }

    /// Sets the gauge `family` to `value`.
    public func set(_ family: Family, to value: Double) {
        state.withLock { state in
            if state.gauges[family] == nil { state.order.append(family) }
            state.gauges[family] = value
        }
    }

    /// Records `value` in the histogram `family` with upper `buckets`.
    public func observe(_ family: Family, _ value: Double, buckets: [Double] = MetricsRegistry.secondsBuckets) {
        state.withLock { state in
            if state.histograms[family] == nil {
                state.histograms[family] = Histogram(
                    buckets: buckets, counts: Array(repeating: 0, count: buckets.count))
                state.order.append(family)
            }
            var histogram = state.histograms[family]!
            for (index, bound) in histogram.buckets.enumerated() where value <= bound {
                histogram.counts[index] += 1
            }
            histogram.sum += value
            histogram.count += 1
            state.histograms[family] = histogram
        }
    }

    /// The counter's value for `labels` (0 when never incremented).
    public func value(_ family: Family, labels: String = "") -> Double {
        state.withLock { $0.counters[family]?[labels]?.current ?? $0.gauges[family] ?? 0 }
    }

    /// Latency buckets from 1 ms to 10 s.
    public static let secondsBuckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    /// Everything in Prometheus text format (version 0.0.4).
    public func render() -> String {
        state.withLock { state in
            var lines: [String] = []
            for family in state.order {
                if let counters = state.counters[family] {
                    let values = counters.compactMap { labels, counter in counter.current.map { (labels, $0) } }
                    // A family whose series were looked up but never counted is not shown yet.
                    guard !values.isEmpty else { continue }
                    lines.append("# HELP \(family.name) \(family.help)")
                    lines.append("# TYPE \(family.name) counter")
                    for (labels, value) in values.sorted(by: { $0.0 < $1.0 }) {
                        lines.append("\(family.name)\(labels.isEmpty ? "" : "{\(labels)}") \(format(value))")
                    }
                } else if let value = state.gauges[family] {
                    lines.append("# HELP \(family.name) \(family.help)")
                    lines.append("# TYPE \(family.name) gauge")
                    lines.append("\(family.name) \(format(value))")
                } else if let histogram = state.histograms[family] {
                    lines.append("# HELP \(family.name) \(family.help)")
                    lines.append("# TYPE \(family.name) histogram")
                    for (bound, count) in zip(histogram.buckets, histogram.counts) {
                        lines.append("\(family.name)_bucket{le=\"\(format(bound))\"} \(count)")
                    }
                    lines.append("\(family.name)_bucket{le=\"+Inf\"} \(histogram.count)")
                    lines.append("\(family.name)_sum \(format(histogram.sum))")
                    lines.append("\(family.name)_count \(histogram.count)")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The content type of ``render()``.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}

private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
