import Foundation

/// Turns the rounds into the printed table and the verdicts on the bars.
///
/// Each figure is given as the best round and the median round; an overhead
/// is given as the ratio of the two best times and as the median of the
/// per-round ratios (each compares two passes that ran seconds apart, so a
/// slow drift in the machine's load cancels out).
struct Report {
    let options: Options
    let fixture: BenchmarkFixture
    let passCount: Int
    let results: [RoundResult]

    /// Whether every bar was met. The network bar is judged on CPU time,
    /// which other processes on a shared machine disturb far less than wall
    /// time, and which counts the origin's serving against the pipeline.
    var barsMet: Bool { hitBarMet && networkOverhead(\.cpu) < Options.networkOverheadBarPercent }

    private var hitSamples: [Double] { results.flatMap(\.hitMicroseconds).sorted() }
    private var hitP99: Double { Statistics.percentile(99, ofSorted: hitSamples) }
    private var hitBarMet: Bool { hitP99 < Options.memoryHitBarMicroseconds }

    /// The network path's overhead over decode only, in percent: the median
    /// of the per-round ratios of `time`.
    private func networkOverhead(_ time: KeyPath<PassTime, Double>) -> Double {
        (medianRatio(\.network, \.decodeOnly, time) - 1) * 100
    }

    func lines() -> [String] {
        let bytes = fixture.passBytes(passCount)
        var lines: [String] = []
        let hits = hitSamples
        let roundMedians = results.map { Statistics.median($0.hitMicroseconds) }
        let roundP99s = results.map { Statistics.percentile(99, ofSorted: $0.hitMicroseconds.sorted()) }
        lines.append(
            "memory hit, image(for:): median \(micro(Statistics.percentile(50, ofSorted: hits)))"
                + ", p99 \(micro(hitP99)), max \(micro(hits.last!)) over \(hits.count) calls on one task;"
                + " best round: median \(micro(roundMedians.min()!)), p99 \(micro(roundP99s.min()!))")
        lines.append(
            "  bar: p99 under \(Int(Options.memoryHitBarMicroseconds)) µs — \(hitBarMet ? "met" : "NOT met")")
        lines.append("")
        lines.append(
            column("pass: \(passCount) images, \(megabytes(bytes)) of WebP", 38) + column("wall, best", 26)
                + column("wall, median", 26) + "CPU ms/image, best / median")
        func row(_ label: String, _ pass: KeyPath<RoundResult, PassTime>) -> String {
            let wall = results.map { $0[keyPath: pass].wall }
            let cpu = results.map { $0[keyPath: pass].cpu }
            return column(label, 38) + column(rate(wall.min()!, bytes: bytes), 26)
                + column(rate(Statistics.median(wall), bytes: bytes), 26)
                + String(
                    format: "%6.2f / %6.2f", cpu.min()! * 1000 / Double(passCount),
                    Statistics.median(cpu) * 1000 / Double(passCount))
        }
        lines.append(row("network + decode, image(for:)", \.network))
        lines.append(row("decode only, images kept", \.decodeOnly))
        lines.append(overhead("pipeline overhead", \.network, \.decodeOnly))
        func verdict(_ time: KeyPath<PassTime, Double>) -> String {
            let percent = networkOverhead(time)
            return String(format: "%+.1f%% ", percent)
                + (percent < Options.networkOverheadBarPercent ? "met" : "NOT met")
        }
        lines.append(
            "  bar: under \(Int(Options.networkOverheadBarPercent))% of the decode cost (median round ratio):"
                + " CPU \(verdict(\.cpu)); wall \(verdict(\.wall))")
        lines.append(row("decode only, images dropped", \.decodeDropped))
        lines.append(overhead("overhead over dropped", \.network, \.decodeDropped))
        lines.append(row("fetch only, CurlDataLoader.load", \.fetchOnly))
        lines.append(overhead("fetch alone / decode only", \.fetchOnly, \.decodeOnly))
        lines.append(row("disk hit + decode, image(for:)", \.diskImage))
        lines.append(overhead("disk path overhead", \.diskImage, \.decodeOnly))
        lines.append(overhead("overhead over dropped", \.diskImage, \.decodeDropped))
        lines.append(row("disk hit, data(for:) bytes only", \.diskData))
        lines.append("")
        lines.append(
            "overheads: ratio of the best times / median of the per-round ratios; CPU counts every thread of"
                + " the process, the origin's serving included")
        lines.append(
            "decode only: ImageDecoder on the exact bytes the pipeline received, same concurrency, same thread"
                + " pool; 'kept' holds each image to the end of the pass as the pipeline's memory cache does"
                + " (the baseline of the bar), 'dropped' lets the next decode reuse its memory warm")
        return lines
    }

    /// Wall and CPU ratios of `pipeline` over `codec`.
    private func overhead(
        _ label: String, _ pipeline: KeyPath<RoundResult, PassTime>, _ codec: KeyPath<RoundResult, PassTime>
    ) -> String {
        func best(_ time: KeyPath<PassTime, Double>) -> Double {
            results.map { $0[keyPath: pipeline][keyPath: time] }.min()!
                / results.map { $0[keyPath: codec][keyPath: time] }.min()!
        }
        return column("  \(label)", 38)
            + column("\(percent(best(\.wall))) / \(percent(medianRatio(pipeline, codec, \.wall)))", 52)
            + "\(percent(best(\.cpu))) / \(percent(medianRatio(pipeline, codec, \.cpu)))"
    }

    private func medianRatio(
        _ pipeline: KeyPath<RoundResult, PassTime>, _ codec: KeyPath<RoundResult, PassTime>,
        _ time: KeyPath<PassTime, Double>
    ) -> Double {
        Statistics.median(results.map { $0[keyPath: pipeline][keyPath: time] / $0[keyPath: codec][keyPath: time] })
    }

    private func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }

    private func percent(_ ratio: Double) -> String { String(format: "%+.1f%%", (ratio - 1) * 100) }

    private func rate(_ seconds: Double, bytes: Int) -> String {
        String(format: "%7.1f img/s %6.1f MB/s", Double(passCount) / seconds, Double(bytes) / 1e6 / seconds)
    }

    private func micro(_ value: Double) -> String { String(format: "%.2f µs", value) }

    private func megabytes(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1e6) }
}
