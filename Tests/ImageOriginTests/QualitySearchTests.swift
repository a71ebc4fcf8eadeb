import Foundation
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The search's bound and its answers, on scores from a model (so every
/// case is exact) and from scores that follow no model at all.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct QualitySearchTests {
    /// Scores as encoders give them: `1 − exp(intercept + slope × q)`.
    static func modelScore(_ quality: Int, intercept: Double, slope: Double) -> Double {
        1 - exp(intercept + slope * Double(quality))
    }

    @Test(arguments: [
        (-1.0, -0.025, 0.935), (-1.0, -0.040, 0.935), (-1.5, -0.015, 0.95), (-0.5, -0.030, 0.9),
        (-2.5, -0.025, 0.935), (-0.2, -0.02, 0.97),
    ])
    func reachesTheTargetWithinTheBound(intercept: Double, slope: Double, target: Double) {
        let search = QualitySearch(target: target, qualities: 30...80, slope: -0.025)
        var tried: [Int] = []
        let choice = search.run { (quality: Int) -> QualitySearch.Trial in
            tried.append(quality)
            let score = Self.modelScore(quality, intercept: intercept, slope: slope)
            // Bytes grow with quality, as they do.
            return QualitySearch.Trial(data: Data(count: quality * 10), score: score)
        }
        #expect(tried.count == choice.encodes && choice.encodes <= QualitySearch.maxEncodes)
        #expect(tried.first == 80, "the fixed default first: \(tried)")
        let lowest = (30...80).first { Self.modelScore($0, intercept: intercept, slope: slope) >= target }
        if let lowest {
            #expect(choice.score >= target, "\(tried)")
            #expect(choice.quality >= lowest && choice.quality <= 80)
            // Four encodes narrow 50 qualities to a few steps of the answer, unless one was close enough.
            let closeEnough = 1 - choice.score >= QualitySearch.closeEnough * (1 - target)
            #expect(
                choice.quality - lowest <= 6 || closeEnough,
                "chose \(choice.quality), lowest passing \(lowest), tried \(tried)")
        } else {
            #expect(choice.quality == 80 && choice.encodes == 1, "the default when even it misses: \(tried)")
        }
    }

    @Test func anEncodeCloseToTheTargetEndsTheSearch() {
        let search = QualitySearch(target: 0.935, qualities: 30...80, slope: -0.025)
        var encodes = 0
        let choice = search.run { (quality: Int) -> QualitySearch.Trial in
            encodes += 1
            // 1 − 0.9355 is 99% of 1 − 0.935: close enough.
            return QualitySearch.Trial(data: Data(count: quality), score: 0.9355)
        }
        #expect(encodes == 1 && choice.quality == 80)
    }

    /// A flood of searches over scores that follow no model (a hostile or
    /// broken metric): never more than the bound, never a failing answer
    /// other than the default, never outside the range.
    @Test func scoresWithoutOrderStillKeepTheBound() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var searchesThatMoved = 0
        for _ in 0..<5_000 {
            let target = 0.5 + random() * 0.49
            let search = QualitySearch(target: target, qualities: 1...100, slope: -0.001 - random() * 0.1)
            var encodes = 0
            let choice = search.run { (quality: Int) -> QualitySearch.Trial in
                encodes += 1
                return QualitySearch.Trial(data: Data(count: Int(random() * 1000)), score: random())
            }
            #expect(encodes <= QualitySearch.maxEncodes && choice.encodes == encodes)
            #expect((1...100).contains(choice.quality))
            #expect(choice.score >= target || choice.quality == 100)
            if choice.quality != 100 { searchesThatMoved += 1 }
        }
        #expect(searchesThatMoved > 0)
    }
}
